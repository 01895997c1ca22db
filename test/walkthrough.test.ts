/**
 * The README walkthrough, run as written (pasting it into a shell ends with a CONFIRMED hotel
 * booking). The in-process stack stands in for `npm start`: the block's API, AUTH and OPS_TOKEN defaults are
 * overridden by the environment, exactly as the README allows.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Stack, startStack } from '@crew/test-support';

const ROOT = join(__dirname, '..');

/** The first ```sh block of the README's "Walkthrough" section. */
function walkthrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Walkthrough'),
    readme.indexOf('\n## ', readme.indexOf('## Walkthrough') + 3),
  );
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no walkthrough block');
  return block[1]!;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('walkthrough', { worker: true });
});
afterAll(() => stack.close());

/** Runs a bash script without blocking this process's event loop (the stack it talks to lives here). */
function bash(
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-eo', 'pipefail', '-c', script], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

it('pasting the README walkthrough ends with CONFIRMED hotel bookings for the roster’s JFK layover', async () => {
  const run = await bash(
    walkthrough(),
    { ...process.env, API: stack.apiUrl, AUTH: stack.authUrl, OPS_TOKEN: stack.opsToken },
    90_000,
  );
  if (run.status !== 0) throw new Error(`walkthrough failed (${run.status}): ${run.stderr}\n${run.stdout}`);
  const lines = run.stdout.trim().split('\n');
  // Action items: the JFK layover of both pilots auto-booked, the deadhead waiting for a manual choice.
  expect(lines).toEqual(
    expect.arrayContaining([
      'NEW_LAYOVER E1001 AUTO_BOOKED ',
      'NEW_LAYOVER E1002 AUTO_BOOKED ',
      'NEW_DEADHEAD E1003 PENDING_REVIEW BOOK_MANUALLY',
    ]),
  );
  const bookings = lines.filter((l) => / E100[12] /.test(l) && !l.startsWith('NEW_'));
  expect(bookings).toHaveLength(2);
  for (const b of bookings) expect(b).toMatch(/^[0-9a-f-]{36} E100[12] CONFIRMED .+ 2027-03-10 \S+$/);
}, 120_000);
