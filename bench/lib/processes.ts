/**
 * The four services as real child processes (`node --import tsx services/<name>/src/main.ts`), so the
 * worker's peak RSS and the api's /healthz are those of the real processes. Every child is tracked and
 * stopped by its own pid, also when the benchmark fails or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs, { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** What bench/lib/api-replicas.ts prints once every replica listens. */
export const API_REPLICAS_LISTENING = 'api replicas: all listening';

export type ServiceName = 'auth' | 'supplier-sandbox' | 'api' | 'worker';

export interface Service {
  name: ServiceName;
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** The last lines the process wrote (stdout and stderr), for the report when something goes wrong. */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<Service>();

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function startService(
  name: ServiceName,
  port: number,
  env: Record<string, string>,
  execArgv: string[] = [],
  script = `services/${name}/src/main.ts`,
): Service {
  const child = spawn(process.execPath, [...execArgv, '--import', 'tsx', path.join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of String(d).split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 200) output.shift();
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // Everything the service writes, kept whole (BENCH_SERVICE_LOG_DIR): for --trace-gc and other diagnostics.
  const logDir = process.env.BENCH_SERVICE_LOG_DIR;
  if (logDir) {
    const file = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
    // Two sources into one file: neither ends it (the first to end would make the other's next write fail);
    // it ends once the process has closed both.
    child.stdout.pipe(file, { end: false });
    child.stderr.pipe(file, { end: false });
    child.once('close', () => file.end());
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const svc: Service = { name, child, pid: child.pid, port, url: `http://127.0.0.1:${port}`, output, exited };
  live.add(svc);
  void exited.then(() => live.delete(svc));
  return svc;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopService(svc: Service, graceMs = 10_000): Promise<void> {
  if (svc.child.exitCode !== null || svc.child.signalCode !== null) return;
  svc.child.kill('SIGTERM');
  const timer = setTimeout(() => svc.child.kill('SIGKILL'), graceMs);
  await svc.exited;
  clearTimeout(timer);
}

export async function stopAll(graceMs = 10_000): Promise<void> {
  for (const c of helpers) c.kill('SIGKILL');
  await Promise.all([...live].map((s) => stopService(s, graceMs)));
}

const helpers = new Set<ChildProcess>();

/** Helper children (samplers, the floor's consumer): killed with the services if still running. */
export function trackChild(child: ChildProcess): void {
  helpers.add(child);
  child.once('exit', () => helpers.delete(child));
}

/** The last lines of every service still tracked (for a failure report). */
export function recentOutput(lines = 15): string[] {
  return [...live].flatMap((s) => s.output.slice(-lines).map((l) => `${s.name}: ${l.slice(0, 400)}`));
}

/** Last resort (process 'exit'): synchronous SIGKILL of every child still running. */
export function killAllNow(): void {
  for (const c of helpers) {
    try {
      c.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const s of live) {
    try {
      s.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Resolves once the process has written `line` (or throws when it exits first or `deadlineMs` passes). */
export async function waitOutput(svc: Service, line: string, deadlineMs = 90_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!svc.output.includes(line)) {
    if (svc.child.exitCode !== null || svc.child.signalCode !== null)
      throw new Error(`${svc.name} exited before writing "${line}":\n${svc.output.slice(-20).join('\n')}`);
    if (Date.now() > until) throw new Error(`${svc.name} did not write "${line}" within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitHttpOk(url: string, svc: Service, deadlineMs = 90_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (svc.child.exitCode !== null || svc.child.signalCode !== null) {
      throw new Error(
        `${svc.name} exited (${svc.child.exitCode ?? svc.child.signalCode}) before ${url} answered:\n${svc.output.slice(-20).join('\n')}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until)
      throw new Error(`${url} did not answer 200 within ${deadlineMs} ms:\n${svc.output.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** /proc/<pid>/status fields in kB (VmHWM = peak resident set, VmRSS = current). */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (USER_HZ = 100 on Linux). */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, i.e. 11 and 12 after the name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
