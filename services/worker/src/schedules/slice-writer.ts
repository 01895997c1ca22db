import type { DerivedActionItem, RequestedBooking } from '@crew/engine';
import type { BookingQueue, CatalogJob } from '@crew/queue';
import type { PendingReview } from '@crew/db';
import type { DiffWrites } from './diff-writes';

/** Items planned and written per slice of the diff's write transaction. */
const WRITE_SLICE = 5000;
/** Slices whose write may be queued on the connection at once: Postgres always has the next one, and the planned rows of only this many sit in memory. */
export const WRITES_AHEAD = 2;

export interface SliceWriterDeps {
  /** Plans a slice (diff-writes planDiffWrites, run to its end with the event loop turning between its parts). */
  plan: (slice: readonly DerivedActionItem[], requested: Map<string, RequestedBooking[]>) => Promise<DiffWrites>;
  /** Queues a slice's rows on the transaction's connection. */
  write: (writes: DiffWrites) => Promise<void>;
  /** The number of PENDING_REVIEW ids kept for the schedule's action_item.pending_review event. */
  pendingReviewIds: number;
  /** Items per slice (WRITE_SLICE unless a test says otherwise). */
  sliceSize?: number;
}

/**
 * Plans and writes a diff's items a slice at a time, in item order, as the diff hands them over: the first
 * slices go to Postgres while the rest of the diff is still being derived (an L first submission's Postgres
 * otherwise waited for the whole diff). It never waits for Postgres while there is room for another write
 * (`writeReady`), only at the end (`finish`); what the writes add up to is kept here.
 */
export class SliceWriter {
  private readonly pending: DerivedActionItem[] = [];
  /** Index of the first item not yet planned. */
  private next = 0;
  /** Queued writes not yet finished, oldest first. */
  private readonly queued: { done: boolean; promise: Promise<void> }[] = [];
  private failure: { error: unknown } | null = null;

  /** Items whose booking task is still running. */
  open = 0;
  newBookings = 0;
  readonly jobs: CatalogJob<BookingQueue>[] = [];
  /** Whether any write changes or adopts an existing booking (then a rerun would not settle). */
  changesBookings = false;
  /** Pairing_numbers with an adopted booking. */
  readonly adopted = new Set<string>();
  readonly pendingReview: { count: number; ids: string[] } = { count: 0, ids: [] };

  private readonly sliceSize: number;

  constructor(private readonly deps: SliceWriterDeps) {
    this.sliceSize = deps.sliceSize ?? WRITE_SLICE;
  }

  /** Items of the diff, in order. */
  add(items: readonly DerivedActionItem[]): void {
    for (const item of items) this.pending.push(item);
  }

  /** Plans and queues the full slices there is room for, without waiting for Postgres. A write that failed is thrown here. */
  async writeReady(requested: Map<string, RequestedBooking[]>): Promise<void> {
    this.throwFailure();
    while (this.pending.length - this.next >= this.sliceSize && this.inFlight() < WRITES_AHEAD)
      await this.writeSlice(requested);
  }

  /** Plans and queues every item left (waiting for Postgres when WRITES_AHEAD writes are queued), then waits for all the writes. */
  async finish(requested: Map<string, RequestedBooking[]>): Promise<PendingReview> {
    while (this.next < this.pending.length) {
      while (this.inFlight() >= WRITES_AHEAD) await this.oldest();
      this.throwFailure();
      await this.writeSlice(requested);
    }
    for (const q of this.queued) await q.promise;
    this.throwFailure();
    return this.pendingReview;
  }

  /** Once every queued write has ended, whatever its outcome (a failed transaction rolls back only then). */
  settled(): Promise<unknown> {
    return Promise.allSettled(this.queued.map((q) => q.promise));
  }

  private inFlight(): number {
    while (this.queued.length && this.queued[0]!.done) this.queued.shift();
    return this.queued.length;
  }

  private async oldest(): Promise<void> {
    // Only waits: a failed write is kept in `failure`, thrown by the throwFailure() that follows.
    await this.queued[0]!.promise.catch(() => undefined);
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }

  private async writeSlice(requested: Map<string, RequestedBooking[]>): Promise<void> {
    const slice = this.pending.slice(this.next, this.next + this.sliceSize);
    this.next += slice.length;
    const writes = await this.deps.plan(slice, requested);
    this.open += writes.open;
    this.newBookings += writes.newBookings.length;
    for (const job of writes.jobs) this.jobs.push(job);
    if (writes.bookingChanges.length || writes.adoptions.length) this.changesBookings = true;
    for (const a of writes.adoptions) this.adopted.add(a.pairing_number);
    this.pendingReview.count += writes.pendingReview.length;
    for (const id of writes.pendingReview) {
      if (this.pendingReview.ids.length >= this.deps.pendingReviewIds) break;
      this.pendingReview.ids.push(id);
    }
    const entry = { done: false, promise: Promise.resolve() };
    entry.promise = this.deps.write(writes).then(
      () => {
        entry.done = true;
      },
      (error: unknown) => {
        entry.done = true;
        this.failure ??= { error };
        throw error;
      },
    );
    // Awaited in finish(); until then a failure must not count as unhandled (it is kept in `failure`).
    entry.promise.catch(() => undefined);
    this.queued.push(entry);
  }
}
