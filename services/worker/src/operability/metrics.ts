import type { Worker } from 'bullmq';
import { Counter, Histogram, type Registry } from 'prom-client';
import { ACTION_TYPES, DISPOSITIONS, Priority } from '@crew/contracts';
import { BOOKING_STATUSES } from '@crew/engine';
import type { WorkerMetrics } from './hooks';
import { createRegistry } from '@crew/queue';

const PRIORITIES = Priority.anyOf.map((s) => s.const);
/** What a booking task can end in (PENDING is not an outcome). */
const BOOKING_OUTCOMES = BOOKING_STATUSES.filter((s) => s !== 'PENDING');
const JOB_OUTCOMES = ['completed', 'failed'] as const;

/** Prometheus implementation of the processors' hooks, plus job durations taken from the BullMQ workers' events. */
export class PromWorkerMetrics implements WorkerMetrics {
  readonly registry: Registry;
  private readonly scheduleSeconds: Histogram<never>;
  private readonly scheduleItems: Counter<never>;
  private readonly bookings: Counter<'type' | 'status'>;
  private readonly disposition: Histogram<'priority' | 'disposition'>;
  private readonly jobSeconds: Histogram<'queue' | 'outcome'>;

  constructor(registry: Registry = createRegistry('worker')) {
    this.registry = registry;
    const registers = [registry];
    this.scheduleSeconds = new Histogram({
      name: 'crew_schedule_processing_seconds',
      help: 'Time from PROCESSING to a written diff, per schedule',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    this.scheduleItems = new Counter({ name: 'crew_schedule_action_items_total', help: 'Action items written by schedule diffs', registers });
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
    // Every known series starts at zero, so rate() and absent() work before the first event.
    for (const type of ACTION_TYPES) for (const status of BOOKING_OUTCOMES) this.bookings.inc({ type, status }, 0);
    for (const priority of PRIORITIES) for (const disposition of DISPOSITIONS) this.disposition.zero({ priority, disposition });
  }

  scheduleProcessed(seconds: number, actionItems: number): void {
    this.scheduleSeconds.observe(seconds);
    this.scheduleItems.inc(actionItems);
  }

  bookingOutcome(type: 'HOTEL' | 'FLIGHT', status: string): void {
    this.bookings.inc({ type, status });
  }

  dispositionReached(priority: string, disposition: string, seconds: number): void {
    this.disposition.observe({ priority, disposition }, Math.max(0, seconds));
  }

  /** Job durations from each worker's completed/failed events (a job moved back to delayed reports neither). */
  observeWorkers(workers: readonly Worker[]): void {
    for (const w of workers) {
      for (const outcome of JOB_OUTCOMES) this.jobSeconds.zero({ queue: w.name, outcome });
      const observe = (outcome: (typeof JOB_OUTCOMES)[number], job: { processedOn?: number; finishedOn?: number } | undefined) => {
        if (!job?.processedOn) return;
        this.jobSeconds.observe({ queue: w.name, outcome }, Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000);
      };
      w.on('completed', (job) => observe('completed', job));
      w.on('failed', (job) => observe('failed', job));
    }
  }
}
