import type { Worker } from 'bullmq';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ACTION_TYPES, DISPOSITIONS, Priority } from '@crew/contracts';
import { BOOKING_STATUSES } from '@crew/engine';
import type { WorkerMetrics } from './hooks';
import { createRegistry, ProcessMetrics, type LaneSnapshot } from '@crew/queue';

/** Airlines with their own series in the per-airline lane gauges; the rest are summed under airline="other". */
export const TOP_AIRLINES = 10;

const PRIORITIES = Priority.anyOf.map((s) => s.const);
/** What a booking task can end in (PENDING is not an outcome). */
const BOOKING_OUTCOMES = BOOKING_STATUSES.filter((s) => s !== 'PENDING');
const JOB_OUTCOMES = ['completed', 'failed'] as const;
const WEBHOOK_LANES = ['urgent', 'bulk'] as const;
const laneOf = (urgent: boolean) => (urgent ? 'urgent' : 'bulk');

/** Prometheus implementation of the processors' hooks, plus job durations taken from the BullMQ workers' events. */
export class PromWorkerMetrics implements WorkerMetrics {
  readonly registry: Registry;
  private readonly processMetrics: ProcessMetrics;
  private readonly scheduleSeconds: Histogram<never>;
  private readonly scheduleItems: Counter<never>;
  private readonly scheduleReruns: Counter<never>;
  private readonly bookings: Counter<'type' | 'status'>;
  private readonly disposition: Histogram<'priority' | 'disposition'>;
  private readonly jobSeconds: Histogram<'queue' | 'outcome'>;
  private readonly laneTasks: Gauge<'queue' | 'priority'>;
  private readonly laneOldest: Gauge<'queue' | 'priority'>;
  private readonly airlineTasks: Gauge<'airline' | 'priority'>;
  private readonly airlineOldest: Gauge<'airline' | 'priority'>;
  private readonly lanesSampled: Gauge<never>;
  private readonly coverage24h: Gauge<'airline' | 'status'>;
  private readonly uncovered12h: Gauge<'airline'>;
  private readonly coverageSampled: Gauge<never>;
  private readonly reviewOverdue: Gauge<'priority'>;
  private readonly reviewDueSoon: Gauge<'priority'>;
  private readonly reviewSampled: Gauge<never>;
  private readonly webhookAttempts: Counter<'lane' | 'outcome'>;
  private readonly webhookLag: Histogram<'lane'>;
  private readonly webhookPending: Gauge<'lane'>;
  private readonly webhookOldest: Gauge<'lane'>;

  constructor(registry: Registry = createRegistry('worker')) {
    this.registry = registry;
    this.processMetrics = new ProcessMetrics(registry);
    const registers = [registry];
    this.scheduleSeconds = new Histogram({
      name: 'crew_schedule_processing_seconds',
      help: 'Time from PROCESSING to a written diff, per schedule',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    this.scheduleItems = new Counter({
      name: 'crew_schedule_action_items_total',
      help: 'Action items written by schedule diffs',
      registers,
    });
    // No labels: a rate above zero is the signal; the worker's log names the airline and schedule.
    this.scheduleReruns = new Counter({
      name: 'crew_schedule_diff_reruns_total',
      help: 'Schedule diffs rolled back and run again because bookings they change were changed after they read them',
      registers,
    });
    this.bookings = new Counter({
      name: 'crew_booking_outcomes_total',
      help: 'Booking tasks by booking type and the status they ended in',
      labelNames: ['type', 'status'] as const,
      registers,
    });
    this.disposition = new Histogram({
      name: 'crew_action_item_disposition_seconds',
      help: 'Time from action item creation to a terminal disposition, by priority',
      labelNames: ['priority', 'disposition'] as const,
      // Seconds to a day: P1 items should settle in minutes, P4 may wait for a human.
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400],
      registers,
    });
    this.jobSeconds = new Histogram({
      name: 'crew_job_duration_seconds',
      help: 'BullMQ job processing time by queue and outcome (one observation per attempt)',
      labelNames: ['queue', 'outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    // Booking lanes, sampled every few seconds by the worker (sampleLanes), not at scrape time.
    this.laneTasks = new Gauge({
      name: 'crew_booking_lane_tasks',
      help: 'Runnable booking tasks waiting, per supplier queue and priority lane',
      labelNames: ['queue', 'priority'] as const,
      registers,
    });
    this.laneOldest = new Gauge({
      name: 'crew_booking_lane_oldest_seconds',
      help: 'Age of the oldest waiting booking task, per supplier queue and priority lane',
      labelNames: ['queue', 'priority'] as const,
      registers,
    });
    this.airlineTasks = new Gauge({
      name: 'crew_booking_airline_tasks',
      help: `Waiting booking tasks per airline and priority: the ${TOP_AIRLINES} airlines with most waiting by airline_id, the rest as "other"`,
      labelNames: ['airline', 'priority'] as const,
      registers,
    });
    this.airlineOldest = new Gauge({
      name: 'crew_booking_airline_oldest_seconds',
      help: 'Age of the oldest waiting booking task per airline (top airlines, "other") and priority',
      labelNames: ['airline', 'priority'] as const,
      registers,
    });
    this.lanesSampled = new Gauge({
      name: 'crew_booking_lanes_sampled_timestamp_seconds',
      help: 'When the booking lanes were last sampled (unix seconds)',
      registers,
    });
    // Coverage of the next hours, recomputed every minute or so by the CoverageMonitor, not at scrape time.
    this.coverage24h = new Gauge({
      name: 'crew_coverage_layovers_next_24h',
      help: `Layovers checking in within 24 h that are AT_RISK or UNCOVERED, per airline: the ${TOP_AIRLINES} airlines with most by airline_id, the rest as "other"`,
      labelNames: ['airline', 'status'] as const,
      registers,
    });
    this.uncovered12h = new Gauge({
      name: 'crew_coverage_uncovered_within_12h',
      help: 'Layovers checking in within 12 h with no live booking (UNCOVERED), per airline (top airlines, "other")',
      labelNames: ['airline'] as const,
      registers,
    });
    this.coverageSampled = new Gauge({
      name: 'crew_coverage_sampled_timestamp_seconds',
      help: 'When the coverage of the next 24 h was last computed (unix seconds)',
      registers,
    });
    // The review queue, counted every minute or so by the ReviewEscalation pass: OPEN items by priority only (P1..P4).
    this.reviewOverdue = new Gauge({
      name: 'crew_review_items_overdue',
      help: 'OPEN review items past their due_by, by priority (all airlines)',
      labelNames: ['priority'] as const,
      registers,
    });
    this.reviewDueSoon = new Gauge({
      name: 'crew_review_items_due_soon',
      help: "OPEN review items due within their airline's due_soon_minutes and not yet overdue, by priority",
      labelNames: ['priority'] as const,
      registers,
    });
    this.reviewSampled = new Gauge({
      name: 'crew_review_queue_sampled_timestamp_seconds',
      help: 'When the review queue was last counted (unix seconds)',
      registers,
    });
    for (const priority of PRIORITIES) {
      this.reviewOverdue.set({ priority }, 0);
      this.reviewDueSoon.set({ priority }, 0);
    }
    // Webhooks: attempts and lag as they happen; the backlog sampled with the booking lanes.
    this.webhookAttempts = new Counter({
      name: 'crew_webhook_attempts_total',
      help: 'Webhook delivery attempts by lane (urgent: P1 bookings) and outcome',
      labelNames: ['lane', 'outcome'] as const,
      registers,
    });
    this.webhookLag = new Histogram({
      name: 'crew_webhook_event_lag_seconds',
      help: 'Event lag: from the change committed (event written) to its successful delivery, by lane',
      labelNames: ['lane'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
      registers,
    });
    this.webhookPending = new Gauge({
      name: 'crew_webhook_pending_deliveries',
      help: 'Webhook deliveries waiting (due or backing off), by lane',
      labelNames: ['lane'] as const,
      registers,
    });
    this.webhookOldest = new Gauge({
      name: 'crew_webhook_oldest_pending_seconds',
      help: 'Age of the oldest waiting webhook delivery, by lane',
      labelNames: ['lane'] as const,
      registers,
    });
    for (const lane of WEBHOOK_LANES) {
      for (const outcome of ['succeeded', 'failed']) this.webhookAttempts.inc({ lane, outcome }, 0);
      this.webhookLag.zero({ lane });
      this.webhookPending.set({ lane }, 0);
      this.webhookOldest.set({ lane }, 0);
    }
    // Every known series starts at zero, so rate() and absent() work before the first event.
    for (const type of ACTION_TYPES) for (const status of BOOKING_OUTCOMES) this.bookings.inc({ type, status }, 0);
    for (const priority of PRIORITIES)
      for (const disposition of DISPOSITIONS) this.disposition.zero({ priority, disposition });
  }

  /** Stops the process metrics' event-loop timer and GC observer; the owner calls it once the process stops. */
  close(): void {
    this.processMetrics.close();
  }

  scheduleProcessed(seconds: number, actionItems: number): void {
    this.scheduleSeconds.observe(seconds);
    this.scheduleItems.inc(actionItems);
  }

  scheduleDiffRerun(): void {
    this.scheduleReruns.inc();
  }

  bookingOutcome(type: 'HOTEL' | 'FLIGHT', status: string): void {
    this.bookings.inc({ type, status });
  }

  dispositionReached(priority: string, disposition: string, seconds: number): void {
    this.disposition.observe({ priority, disposition }, Math.max(0, seconds));
  }

  webhookAttempt(ok: boolean, urgent: boolean, lagSeconds: number | null): void {
    const lane = laneOf(urgent);
    this.webhookAttempts.inc({ lane, outcome: ok ? 'succeeded' : 'failed' });
    if (ok && lagSeconds !== null) this.webhookLag.observe({ lane }, Math.max(0, lagSeconds));
  }

  /** Sets the webhook backlog gauges from a sample (a lane with nothing pending reads 0). */
  setWebhookBacklog(rows: readonly { urgent: boolean; pending: number; oldest_seconds: number }[]): void {
    for (const lane of WEBHOOK_LANES) {
      const r = rows.find((x) => laneOf(x.urgent) === lane);
      this.webhookPending.set({ lane }, r?.pending ?? 0);
      this.webhookOldest.set({ lane }, r?.oldest_seconds ?? 0);
    }
  }

  /** Sets the lane gauges from a sample; airlines beyond the top TOP_AIRLINES (by waiting tasks) become "other". */
  setLanes(snapshot: LaneSnapshot, at = Date.now()): void {
    this.laneTasks.reset();
    this.laneOldest.reset();
    for (const l of snapshot.lanes) {
      this.laneTasks.set({ queue: l.queue, priority: l.priority }, l.waiting);
      this.laneOldest.set({ queue: l.queue, priority: l.priority }, l.oldestSeconds);
    }
    const totals = new Map<string, number>();
    for (const a of snapshot.airlines) totals.set(a.airline_id, (totals.get(a.airline_id) ?? 0) + a.waiting);
    const top = new Set(
      [...totals.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, TOP_AIRLINES)
        .map(([id]) => id),
    );
    const rows = new Map<string, { airline: string; priority: string; waiting: number; oldest: number }>();
    for (const a of snapshot.airlines) {
      const airline = top.has(a.airline_id) ? a.airline_id : 'other';
      const r = rows.get(`${airline}/${a.priority}`) ?? { airline, priority: a.priority, waiting: 0, oldest: 0 };
      r.waiting += a.waiting;
      r.oldest = Math.max(r.oldest, a.oldestSeconds);
      rows.set(`${airline}/${a.priority}`, r);
    }
    this.airlineTasks.reset();
    this.airlineOldest.reset();
    for (const r of rows.values()) {
      this.airlineTasks.set({ airline: r.airline, priority: r.priority }, r.waiting);
      this.airlineOldest.set({ airline: r.airline, priority: r.priority }, r.oldest);
    }
    this.lanesSampled.set(at / 1000);
  }

  /** Sets the coverage gauges from a sample; airlines beyond the top TOP_AIRLINES (by AT_RISK + UNCOVERED) become "other". */
  setCoverage(
    airlines: readonly { airline_id: string; at_risk: number; uncovered: number; uncovered_12h: number }[],
    at = Date.now(),
  ): void {
    const top = new Set(
      [...airlines]
        .sort((x, y) => y.at_risk + y.uncovered - (x.at_risk + x.uncovered))
        .slice(0, TOP_AIRLINES)
        .map((a) => a.airline_id),
    );
    const rows = new Map<string, { at_risk: number; uncovered: number; uncovered_12h: number }>();
    for (const a of airlines) {
      const airline = top.has(a.airline_id) ? a.airline_id : 'other';
      const r = rows.get(airline) ?? { at_risk: 0, uncovered: 0, uncovered_12h: 0 };
      r.at_risk += a.at_risk;
      r.uncovered += a.uncovered;
      r.uncovered_12h += a.uncovered_12h;
      rows.set(airline, r);
    }
    this.coverage24h.reset();
    this.uncovered12h.reset();
    for (const [airline, r] of rows) {
      this.coverage24h.set({ airline, status: 'AT_RISK' }, r.at_risk);
      this.coverage24h.set({ airline, status: 'UNCOVERED' }, r.uncovered);
      this.uncovered12h.set({ airline }, r.uncovered_12h);
    }
    this.coverageSampled.set(at / 1000);
  }

  /** Sets the review queue gauges from a pass (a priority with nothing due reads 0; other labels are ignored). */
  setReviewQueue(rows: readonly { priority: string; overdue: number; due_soon: number }[], at = Date.now()): void {
    for (const priority of PRIORITIES) {
      const r = rows.find((x) => x.priority === priority);
      this.reviewOverdue.set({ priority }, r?.overdue ?? 0);
      this.reviewDueSoon.set({ priority }, r?.due_soon ?? 0);
    }
    this.reviewSampled.set(at / 1000);
  }

  /** Job durations from each worker's completed/failed events (a job moved back to delayed reports neither). */
  observeWorkers(workers: readonly Worker[]): void {
    for (const w of workers) {
      for (const outcome of JOB_OUTCOMES) this.jobSeconds.zero({ queue: w.name, outcome });
      const observe = (
        outcome: (typeof JOB_OUTCOMES)[number],
        job: { processedOn?: number; finishedOn?: number } | undefined,
      ) => {
        if (!job?.processedOn) return;
        this.jobSeconds.observe(
          { queue: w.name, outcome },
          Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000,
        );
      };
      w.on('completed', (job) => observe('completed', job));
      w.on('failed', (job) => observe('failed', job));
    }
  }
}
