/** What a benchmark's figures were measured on: the machine, and the code (read-only git calls). */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { ROOT } from './processes';

export interface Machine {
  /** The cores this process may use (nproc), else every core of the machine. */
  nproc: number;
  cpu: string;
  memGiB: number;
  node: string;
  kernel: string;
}

export function machine(): Machine {
  let nproc = os.cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // os.cpus() then
  }
  return {
    nproc,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
  };
}

/** The code measured: HEAD's commit, and how many tracked files differ from it. */
export function codeVersion(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean).length;
    return dirty ? `commit ${head} with ${dirty} modified tracked file(s)` : `commit ${head}`;
  } catch {
    return 'unknown (no git)';
  }
}
