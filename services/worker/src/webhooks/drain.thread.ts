/**
 * The worker's webhook drain thread: sends deliveries with an event loop of its own. On the worker's main loop
 * every step of a delivery (the request, its answer, the attempt's record) waited behind the callbacks of the
 * booking tasks running there, and one endpoint's deliveries are strictly one after the other: while a big
 * roster was booked they went out at a third of the rate bookings settled (docs/benchmarks.md, webhooks).
 */
import { parentPort } from 'node:worker_threads';
import { createDb } from '@crew/db';
import { createLogger, threadData } from '@crew/platform';
import type { DrainReply, DrainRequest, DrainThreadData } from './drain';
import { EndpointDrainer } from './endpoint-drainer';

const { config } = threadData<DrainThreadData>();
const reply = (m: DrainReply) => parentPort!.postMessage(m);
// One connection per concurrent drain (each holds its own), and one spare.
const db = createDb(config.databaseUrl, {
  applicationName: 'crew-worker-webhooks',
  max: config.webhookConcurrency + 1,
});
const drainer = new EndpointDrainer({
  db,
  config,
  // Lines go to the process's logger (its destination and bindings): the thread writes no output of its own.
  logger: createLogger('worker', config.logLevel, { write: (line: string) => reply({ log: line }) }),
  metrics: { webhookAttempt: (ok, urgent, lagSeconds) => reply({ attempt: [ok, urgent, lagSeconds] }) },
  kick: () => reply({ kick: true }),
});

let closing: Promise<void> | null = null;
parentPort!.on('message', (m: DrainRequest) => {
  if (m.op === 'drain') {
    drainer.drain(m.endpoint_id).then(
      (more) => reply({ id: m.id, more }),
      (err: unknown) => reply({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  closing ??= drainer
    .close()
    .then(() => db.destroy())
    .catch(() => undefined)
    .finally(() => reply({ closed: true }));
});

reply({ ready: true });
