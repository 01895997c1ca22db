import { API_PREFIX, type Priority } from '@crew/contracts';
import { reviewWritesRepo, webhookRepo, type Db, type DueSoonItem } from '@crew/db';
import { DEFAULT_REVIEW_SETTINGS, urgentEvents } from '@crew/engine';
import type { Logger } from '@crew/platform';

/** Items marked due soon per transaction (its events are written with the marks). */
export const DUE_SOON_BATCH = 1000;
/** Batches per pass at most: a backlog (say the first pass after a long outage) is worked off over a few passes. */
const MAX_BATCHES = 20;

/** OPEN items per priority: past their due_by, and within their airline's due_soon_minutes of it. */
export interface ReviewQueueFigures {
  priority: string;
  overdue: number;
  due_soon: number;
}

export interface ReviewEscalationDeps {
  db: Db;
  logger: Logger;
  /** Where the figures go (PromWorkerMetrics.setReviewQueue). */
  report: (figures: ReviewQueueFigures[], at: number) => void;
  now?: () => Date;
  /** How often the pass runs (default 60 s). */
  intervalMs?: number;
  /** Items marked per transaction (default DUE_SOON_BATCH). */
  batch?: number;
}

/**
 * The review queue's escalation: periodically, the OPEN items whose due_by is within their airline's
 * due_soon_minutes (or already past) are marked due soon and announced, action_item.due_soon, once per item,
 * in the transaction that marks them: of two workers passing at once, each item goes to one. The pass also
 * counts what is overdue and due soon for /metrics, so a scrape never waits on it.
 */
export class ReviewEscalation {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<{ announced: number; figures: ReviewQueueFigures[] }> | null = null;
  private closed = false;
  /** The figures of the previous pass. */
  private figures: ReviewQueueFigures[] = [];

  constructor(private readonly deps: ReviewEscalationDeps) {}

  start(): this {
    const run = () => void this.pass().catch((err) => this.deps.logger.warn({ err }, 'review escalation failed'));
    this.timer = setInterval(run, this.deps.intervalMs ?? 60_000);
    this.timer.unref();
    run();
    return this;
  }

  /**
   * Stops the escalation for good and resolves once a pass in flight has ended (it stops before its next batch):
   * nothing of it runs on after the worker's connections close. No pass starts after it. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /**
   * One pass (a pass already under way is joined, not doubled): how many items were announced, and the figures.
   * After close(), none: nothing announced, the previous pass's figures.
   */
  pass(): Promise<{ announced: number; figures: ReviewQueueFigures[] }> {
    if (this.closed) return this.running ?? Promise.resolve({ announced: 0, figures: this.figures });
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<{ announced: number; figures: ReviewQueueFigures[] }> {
    const now = this.deps.now?.() ?? new Date();
    const batch = this.deps.batch ?? DUE_SOON_BATCH;
    const dueSoonMinutes = DEFAULT_REVIEW_SETTINGS.due_soon_minutes;
    let announced = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      // Closing: the items left are marked by the next process; the figures are not counted.
      if (this.closed) return { announced, figures: this.figures };
      const marked = await this.deps.db.transaction().execute(async (trx) => {
        const items = await reviewWritesRepo.markDueSoon(trx, now, dueSoonMinutes, batch);
        await webhookRepo.emitEvents(trx, items.map(dueSoonEvent));
        return items.length;
      });
      announced += marked;
      if (marked < batch) break;
    }
    const figures = await reviewWritesRepo.reviewQueueFigures(this.deps.db, now, dueSoonMinutes);
    this.figures = figures;
    this.deps.report(figures, now.getTime());
    if (announced) this.deps.logger.info({ announced }, 'review items announced due soon');
    return { announced, figures };
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The `action_item.due_soon` event of an item just marked (contracts WEBHOOK_EVENT_SCHEMAS' action item data). */
export function dueSoonEvent(item: DueSoonItem) {
  return {
    airline_id: item.airline_id,
    type: 'action_item.due_soon',
    data: {
      action_id: item.action_id,
      schedule_id: item.schedule_id,
      type: item.type,
      classification: item.classification,
      priority: item.priority,
      disposition: item.disposition,
      review_status: 'OPEN',
      due_by: iso(item.due_by),
      booking_id: item.booking_id,
      action_taken: item.action_taken,
      action_taken_at: iso(item.action_taken_at),
      action_taken_by: item.action_taken_by,
      action_reason: item.action_reason,
      assignee: item.assignee,
    },
    links: {
      action_items: `${API_PREFIX}/crew/action-items?review_status=OPEN&sort=due_by`,
      booking: item.booking_id ? `${API_PREFIX}/crew/bookings/${item.booking_id}` : null,
    },
    // A P1 item's deadline is minutes away: delivered first, as its booking's events are.
    urgent: urgentEvents(item.priority as Priority),
  };
}
