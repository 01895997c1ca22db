/**
 * The floor's no-op BullMQ consumer in its own process (as the service's worker is): started by
 * measureQueue with BENCH_REDIS_URL, BENCH_PREFIX, BENCH_QUEUE, BENCH_JOBS; tells its parent over IPC
 * when it is ready and when it has completed every job, then waits to be told to exit.
 */
import { Worker } from 'bullmq';
import { createRedis } from '@crew/queue';

const jobs = Number(process.env.BENCH_JOBS);
const connection = createRedis(process.env.BENCH_REDIS_URL!, true);
let done = 0;
const worker = new Worker(process.env.BENCH_QUEUE!, async () => undefined, {
  connection,
  prefix: process.env.BENCH_PREFIX!,
  concurrency: 50,
  autorun: false,
});
worker.on('error', () => undefined);
worker.on('completed', () => {
  if (++done === jobs) process.send?.({ done });
});

async function stop(): Promise<void> {
  await worker.close().catch(() => undefined);
  connection.disconnect();
  process.exit(0);
}

process.on('message', (m) => {
  if (m === 'stop') void stop();
});
process.on('disconnect', () => void stop());

void (async () => {
  void worker.run();
  await worker.waitUntilReady();
  process.send?.('ready');
})();
