/**
 * The api's part of bench:invoices on a thread of its own, as it runs in a process of its own in production:
 * each body parsed, checked whole and stored (the invoice, its posted lines, the outbox row), then its id handed
 * to the reconciling side, which starts on it while the next body is taken in. The thread lives through every
 * run of the benchmark, as a deployed api lives through many invoices: a run's bodies are handed over before
 * the run is timed, and `go` starts it.
 */
import { parentPort } from 'node:worker_threads';
import { openDatabase } from '@crew/db';
import { threadData } from '@crew/platform';
import { takeInInvoice } from './take-in';

export interface IntakeData {
  url: string;
  airlineId: string;
}

/** From the reconciling side: a run's bodies as bytes (before the run is timed), its start, or the end. */
export type IntakeCommand = { bodies: Uint8Array[] } | 'go' | 'stop';

/** To the reconciling side: the bodies held, an invoice stored, the run's end, or an error. */
export type IntakeMessage = { held: number } | { invoice_id: string } | { done: true } | { error: string };

async function main(): Promise<void> {
  const { url, airlineId } = threadData<IntakeData>();
  const db = await openDatabase(url, { max: 1 });
  const port = parentPort!;
  let bodies: Buffer[] = [];
  const run = async () => {
    try {
      for (const bytes of bodies)
        port.postMessage({ invoice_id: await takeInInvoice(db, airlineId, bytes) } satisfies IntakeMessage);
      port.postMessage({ done: true } satisfies IntakeMessage);
    } catch (err) {
      port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies IntakeMessage);
    }
  };
  port.on('message', (m: IntakeCommand) => {
    if (m === 'go') void run();
    else if (m === 'stop') void db.destroy().finally(() => port.close());
    else {
      // As a request's body arrives: bytes outside the JS heap.
      bodies = m.bodies.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
      port.postMessage({ held: bodies.length } satisfies IntakeMessage);
    }
  });
  port.postMessage({ ready: true });
}

void main();
