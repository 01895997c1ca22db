/**
 * `npm run checks`: the static checks of `npm test` — typecheck, lint, lint:deps, format:check — in two lanes side
 * by side (a machine has two cores; each check uses one): ESLint, the longest, alone in one, the other three in
 * turn in the other. Each one's output is printed whole when it ends. Exits non-zero when any failed, after all
 * have run, so one run names every failing check.
 */
import { spawn } from 'node:child_process';

const LANES = [['lint'], ['typecheck', 'lint:deps', 'format:check']];

function run(script: string): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => output.push(b));
    child.stderr.on('data', (b: Buffer) => output.push(b));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n`);
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

async function lane(scripts: string[], failed: string[]): Promise<void> {
  for (const script of scripts) if (!(await run(script))) failed.push(script);
}

async function main(): Promise<void> {
  const failed: string[] = [];
  await Promise.all(LANES.map((scripts) => lane(scripts, failed)));
  if (failed.length > 0) {
    process.stdout.write(`checks failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}

void main();
