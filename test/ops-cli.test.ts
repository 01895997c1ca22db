import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Stack, startStack } from '@crew/test-support';

let stack: Stack;
let dir: string;

beforeAll(async () => {
  stack = await startStack('ops_cli');
  dir = mkdtempSync(path.join(tmpdir(), 'ops-cli-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

const OPS_CLI = path.join(__dirname, '..', 'scripts', 'ops.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

/**
 * `npm run ops -- <args>` as npm runs it: in the working directory where `npm start` wrote .ops-token (here a
 * directory of the test's own, so a developer's .ops-token is never touched), with `env` as the environment.
 */
function ops(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { OPS_TOKEN: _exported, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, OPS_CLI, ...args],
      { cwd: dir, env: { ...inherited, API_URL: stack.apiUrl, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

describe('npm run ops', () => {
  it('without OPS_TOKEN exported, uses the .ops-token npm start wrote', async () => {
    writeFileSync(path.join(dir, '.ops-token'), `${stack.opsToken}\n`, { mode: 0o600 });
    const res = await ops(['airlines'], {});
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(res.stdout)).toHaveProperty('airlines');
  });

  it('prefers an exported OPS_TOKEN over the file', async () => {
    writeFileSync(path.join(dir, '.ops-token'), 'not-the-token\n', { mode: 0o600 });
    expect((await ops(['airlines'], {})).code).toBe(1);
    expect((await ops(['airlines'], { OPS_TOKEN: stack.opsToken })).code).toBe(0);
  });

  it('without either, says so and exits 2', async () => {
    rmSync(path.join(dir, '.ops-token'), { force: true });
    const res = await ops(['airlines'], {});
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('OPS_TOKEN is not set');
  });
});
