import { invoiceIssues, postInvoice } from '@crew/api';
import type { Db } from '@crew/db';
import type { OutboxRelay } from '@crew/queue';

/** The outbox relay's wake-up, which the benchmark does not need (the reconciliation is called directly). */
export const quietRelay = { kick: () => undefined } as unknown as OutboxRelay;

/**
 * The api's part of posting one invoice body, from its bytes as received (as express.json reads them): decoded
 * and parsed, checked whole, stored as the route stores it (the bytes it kept, keepJsonBytes) with its outbox
 * row. The stored invoice's id.
 */
export async function takeInInvoice(db: Db, airlineId: string, bytes: Buffer): Promise<string> {
  const body: unknown = JSON.parse(bytes.toString('utf8'));
  const issues = invoiceIssues(body);
  if (issues.length) throw new Error(`refused: ${JSON.stringify(issues.slice(0, 3))}`);
  const accepted = await postInvoice(db, quietRelay, airlineId, body as Parameters<typeof postInvoice>[3], bytes);
  return accepted.invoice_id;
}
