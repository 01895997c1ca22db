import { webhookRepo, type Db } from '@crew/db';

export interface PurgeOptions {
  /** Events read per step (their finished deliveries, and then they, deleted in two statements). */
  batch: number;
  /** Steps per call at most: a backlog (the first pass after an upgrade) is worked off over several calls. */
  maxBatches: number;
  /** Go on after this event sequence (the `next` of the previous call); 0 starts from the oldest event. */
  afterSeq?: number;
  /** Checked between steps: true (shutdown) ends the call there; the next call goes on from its `next`. */
  stopped?: () => boolean;
}

export interface PurgeResult {
  deliveries: number;
  events: number;
  /** Where the next call goes on from: 0 when this one reached the events still kept (start again from the oldest). */
  next: number;
}

/**
 * Deletes webhook history past `retentionDays`: the SUCCEEDED and FAILED deliveries of events older than that, then
 * those events with no delivery left (a deleted endpoint's included). A PENDING delivery (its endpoint disabled, or
 * still retrying) is kept, and its event with it, however old. Events are walked in the order they were written
 * (their sequence, an index the table has), from `afterSeq`, up to the first one still kept: events are written in
 * time order, so what follows it is younger. Within one call the walk goes forward, so old events still held by a
 * PENDING delivery are read once per pass, not once per batch.
 */
export async function purgeWebhookHistory(db: Db, retentionDays: number, opts: PurgeOptions): Promise<PurgeResult> {
  const out: PurgeResult = { deliveries: 0, events: 0, next: opts.afterSeq ?? 0 };
  for (let i = 0; i < opts.maxBatches && !opts.stopped?.(); i++) {
    const rows = await webhookRepo.eventsAfter(db, out.next, opts.batch, retentionDays);
    const young = rows.findIndex((r) => !r.expired);
    const expired = young === -1 ? rows : rows.slice(0, young);
    const ids = expired.map((r) => r.event_id);
    out.deliveries += await webhookRepo.deleteFinishedDeliveries(db, ids);
    out.events += await webhookRepo.deleteEventsWithoutDeliveries(db, ids);
    if (young !== -1 || rows.length < opts.batch) return { ...out, next: 0 };
    out.next = rows[rows.length - 1]!.seq;
  }
  return out;
}
