/**
 * The api as BENCH_API_REPLICAS processes behind one port (node:cluster, connections dealt round-robin): the
 * shape the manifests deploy (at least two api pods behind one Service), on one machine. Each replica runs
 * services/api/src/main.ts unchanged. Prints API_REPLICAS_LISTENING once every replica listens. SIGTERM and
 * SIGINT reach every replica, and one replica's unexpected exit stops the rest (a benchmark must not go on
 * against half its api).
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { API_REPLICAS_LISTENING } from './processes';

const replicas = Number(process.env.BENCH_API_REPLICAS ?? '2');
cluster.setupPrimary({ exec: path.resolve(__dirname, '../../services/api/src/main.ts'), execArgv: process.execArgv });
for (let i = 0; i < replicas; i++) cluster.fork();

let listening = 0;
cluster.on('listening', () => {
  if (++listening === replicas) console.log(API_REPLICAS_LISTENING);
});

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  stopping = true;
  for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
cluster.on('exit', (w, code, signal) => {
  if (!stopping) {
    console.error(`api replica ${w.process.pid} exited (${code ?? signal}): stopping the others`);
    process.exitCode = 1;
    stop('SIGTERM');
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
});
