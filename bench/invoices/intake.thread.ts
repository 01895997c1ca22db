/**
 * The api's part of bench:invoices on a thread of its own, as it runs in a process of its own in production:
 * each body parsed, checked whole and stored (the invoice, its posted lines, the outbox row), then its id handed
 * to the reconciling side, which starts on it while the next body is taken in.
 */
import { parentPort } from 'node:worker_threads';
import { openDatabase } from '@crew/db';
import { threadData } from '@crew/platform';
import { takeInInvoice } from './take-in';

export interface IntakeData {
  url: string;
  airlineId: string;
  bodies: string[];
}

/** To the reconciling side: an invoice stored, or the run's end. */
export type IntakeMessage = { invoice_id: string } | { done: true } | { error: string };

async function main(): Promise<void> {
  const { url, airlineId, bodies } = threadData<IntakeData>();
  const db = await openDatabase(url, { max: 1 });
  const port = parentPort!;
  port.once('message', () => {
    void (async () => {
      try {
        for (const text of bodies)
          port.postMessage({ invoice_id: await takeInInvoice(db, airlineId, text) } satisfies IntakeMessage);
        port.postMessage({ done: true } satisfies IntakeMessage);
      } catch (err) {
        port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies IntakeMessage);
      } finally {
        await db.destroy();
      }
    })();
  });
  port.postMessage({ ready: true });
}

void main();
