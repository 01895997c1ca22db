/**
 * The /healthz sampler in its own small process, so that the bench process (which holds the rosters) can
 * never delay a sample: GET BENCH_HEALTH_URL every BENCH_EVERY_MS, one request at a time. Says 'ready'
 * after the first answer; on 'stop' it sends its latencies and event-loop delay back and exits.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const url = process.env.BENCH_HEALTH_URL!;
const everyMs = Number(process.env.BENCH_EVERY_MS || 50);
const latencies: number[] = [];
/** Wall-clock start (epoch ms) of each sample. */
const startedAt: number[] = [];
let errors = 0;
let running = true;
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

async function sample(): Promise<void> {
  const t = performance.now();
  startedAt.push(Date.now());
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    if (!res.ok) errors++;
  } catch {
    errors++;
  }
  latencies.push(performance.now() - t);
}

const loop = (async () => {
  await sample();
  loopDelay.enable();
  process.send?.('ready');
  while (running) {
    const t = performance.now();
    await sample();
    const ms = performance.now() - t;
    if (ms < everyMs) await new Promise((r) => setTimeout(r, everyMs - ms));
  }
})();

async function stop(): Promise<void> {
  running = false;
  await loop;
  loopDelay.disable();
  const reply = { latencies, startedAt, errors, loopMaxMs: loopDelay.max / 1e6 };
  if (process.connected) await new Promise<void>((r) => process.send!(reply, () => r()));
  process.exit(0);
}

process.on('message', (m) => {
  if (m === 'stop') void stop();
});
process.on('disconnect', () => process.exit(0));
