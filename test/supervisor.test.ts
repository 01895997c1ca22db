import { waitFor } from '@crew/test-support';
import { Supervisor } from '../scripts/supervisor';

jest.setTimeout(30_000);

const node = (code: string) => ({ command: process.execPath, args: ['-e', code] });
/** A service stand-in: prints, then runs until SIGTERM / SIGINT and exits 0, as the services do. */
// Handlers first, then 'up': a pipe is written synchronously on Linux, and a signal sent on 'up' must find them.
const SERVICE = `const stop = () => process.exit(0); process.on('SIGTERM', stop); process.on('SIGINT', stop); console.log('up'); setInterval(() => {}, 1000);`;

const alive = (pid: number | undefined) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Output lines arrive within milliseconds: look often. */
const until = (probe: () => boolean, ms: number, what: string) => waitFor(probe, ms, what, 20);

/**
 * Resolves once every timer of at most `ms` armed before this call has fired: Node fires timers of one
 * duration in the order they were armed, and a shorter one armed earlier sooner still. So "nothing happens"
 * is shown against the supervisor's own back-off timers (at most maxDelayMs), not a guessed pause.
 */
const timersArmedBefore = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('npm start supervisor: a crashed child is restarted with growing back-off while the others keep running; SIGTERM stops all and exits 0', async () => {
  const lines: string[] = [];
  const supervisor = new Supervisor(
    [
      { name: 'steady', ...node(SERVICE) },
      // Crashes (exit 1) right after starting, every time.
      { name: 'crashy', ...node(`console.log('crashy up'); setTimeout(() => process.exit(1), 50);`) },
    ],
    { initialDelayMs: 100, maxDelayMs: 400, write: (l) => lines.push(l) },
  ).start();
  try {
    await until(() => lines.includes('[steady] up'), 10_000, 'steady to start');
    const steadyPid = supervisor.pids().steady;
    const restarts = () => lines.filter((l) => l.startsWith('[supervisor] crashy exited (code 1); restarting in'));
    // Stopped below while crashy waits for its 4th restart (400 ms), so no crash races the stop.
    await until(() => restarts().length >= 4, 20_000, 'crashy to crash four times');
    // Doubling, capped.
    expect(restarts().map((l) => Number(/in (\d+) ms/.exec(l)![1]))).toEqual([100, 200, 400, 400]);
    expect(lines.filter((l) => l === '[crashy] crashy up')).toHaveLength(4);
    // The steady child was never stopped or restarted.
    expect(supervisor.pids().steady).toBe(steadyPid);
    expect(alive(steadyPid)).toBe(true);
    expect(lines.filter((l) => l === '[steady] up')).toHaveLength(1);
  } finally {
    const code = await supervisor.stop('SIGTERM');
    expect(code).toBe(0);
  }
  expect(Object.values(supervisor.pids()).every((p) => p === undefined)).toBe(true);
  // Nothing is restarted once stopping.
  const count = lines.filter((l) => l === '[crashy] crashy up').length;
  // A restart still armed at the stop (at most maxDelayMs, 400 ms) would have started crashy by then.
  await timersArmedBefore(400);
  expect(lines.filter((l) => l === '[crashy] crashy up').length).toBe(count);
});

it('a child that ran longer than resetAfterMs before crashing restarts after the initial delay again', async () => {
  const lines: string[] = [];
  // Runs 300 ms, then crashes.
  const supervisor = new Supervisor(
    [{ name: 'late', ...node(`console.log('up'); setTimeout(() => process.exit(3), 300);`) }],
    {
      initialDelayMs: 50,
      maxDelayMs: 1000,
      resetAfterMs: 200,
      write: (l) => lines.push(l),
    },
  ).start();
  try {
    await until(() => lines.filter((l) => l.includes('restarting in')).length >= 3, 15_000, 'three restarts');
    expect(
      lines
        .filter((l) => l.includes('restarting in'))
        .slice(0, 3)
        .map((l) => /in (\d+) ms/.exec(l)![1]),
    ).toEqual(['50', '50', '50']);
  } finally {
    await supervisor.stop('SIGTERM');
  }
});

it('one Ctrl-C delivered twice (terminal group + npm relaying it) is one graceful stop; a later second signal is passed on', async () => {
  const lines: string[] = [];
  // Counts the signals it gets: the first starts a slow graceful stop, a second one exits at once with 1.
  // 'up' after the handler, as in SERVICE.
  const GRACEFUL = `let n = 0; process.on('SIGINT', () => { n++; console.log('signal ' + n); if (n > 1) process.exit(1); setTimeout(() => process.exit(0), 1500); }); console.log('up'); setInterval(() => {}, 1000);`;
  const supervisor = new Supervisor([{ name: 'svc', ...node(GRACEFUL) }], { write: (l) => lines.push(l) }).start();
  await until(() => lines.includes('[svc] up'), 10_000, 'svc to start');
  const done = supervisor.stop('SIGINT');
  void supervisor.stop('SIGINT');
  expect(await done).toBe(0);
  expect(lines.filter((l) => l.startsWith('[svc] signal'))).toEqual(['[svc] signal 1']);

  const again = new Supervisor([{ name: 'svc', ...node(GRACEFUL) }], { write: (l) => lines.push(l) }).start();
  await until(() => lines.filter((l) => l === '[svc] up').length === 2, 10_000, 'svc to start again');
  const stoppedAt = Date.now();
  const stopped = again.stop('SIGINT');
  // The second signal comes once the child is in its graceful stop and the repeated-signal window (1 s) is over.
  await until(
    () => lines.filter((l) => l === '[svc] signal 1').length === 2 && Date.now() - stoppedAt > 1050,
    10_000,
    'the graceful stop, past the repeated-signal window',
  );
  void again.stop('SIGINT');
  expect(await stopped).toBe(1);
});
