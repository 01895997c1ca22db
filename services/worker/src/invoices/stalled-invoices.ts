import type { Queue } from 'bullmq';
import { invoiceRepo, outboxRepo, type Db } from '@crew/db';
import { invoiceJob, type OutboxRelay } from '@crew/queue';
import { RECONCILIATION_STOPPED } from './invoice.reconciler';

/** How long an invoice may stay RECONCILING before its job is looked for (a backlog's jobs are found live). */
export const STALLED_INVOICE_MS = 5 * 60_000;
/** Invoices looked at per pass (the rest in the next). */
const BATCH = 100;
/** A job in these states will still run: its invoice is left to it. */
const LIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'paused']);

/**
 * An invoice's reconciliation is one BullMQ job, and Redis here keeps nothing on disk: a restart loses it, and the
 * invoice would stay RECONCILING for good. Each pass looks at the invoices RECONCILING for longer than
 * `olderThanMs` (the database's clock): one whose job is gone is queued again, through the outbox, under the same
 * job id as the first (BullMQ drops the add while a job of that id exists, so two workers' passes queue it once,
 * and a reconciliation is one transaction that first checks the invoice is still RECONCILING); one whose job ended
 * (failed, its failure not recorded: the worker stopped in between) is FAILED with why. A live job is left alone.
 */
export async function requeueStalledInvoices(deps: {
  db: Db;
  relay: OutboxRelay;
  queue: Queue;
  olderThanMs?: number;
}): Promise<{ requeued: number; failed: number }> {
  const stale = await invoiceRepo.staleReconciling(deps.db, deps.olderThanMs ?? STALLED_INVOICE_MS, BATCH);
  const lost: ReturnType<typeof invoiceJob>[] = [];
  let failed = 0;
  for (const inv of stale) {
    const entry = invoiceJob(inv.airline_id, inv.invoice_id);
    const job = await deps.queue.getJob(entry.job_id);
    const state = job ? await job.getState() : 'unknown';
    if (LIVE.has(state)) continue;
    if (state === 'unknown') lost.push(entry);
    else {
      // Failed (or, which reconciliation never does, completed) and the invoice still RECONCILING.
      await invoiceRepo.failInvoice(deps.db, inv.invoice_id, RECONCILIATION_STOPPED);
      failed++;
    }
  }
  if (lost.length > 0) {
    await outboxRepo.addToOutbox(deps.db, lost);
    deps.relay.kick();
  }
  return { requeued: lost.length, failed };
}
