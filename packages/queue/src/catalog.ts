import type { BookingOperation } from '@crew/contracts';

/**
 * The typed job catalog shared by producers (api, worker) and consumers (worker). Payloads only ever
 * change additively: a new field is optional, so jobs already queued by an older release still run.
 */
export interface JobCatalog {
  schedules: {
    /** Process the airline's queued schedules, oldest first (strict per-airline order). */
    'process-schedules': { airline_id: string; schedule_id: string };
  };
  bookings: {
    /** Make, amend or cancel one booking at the supplier. */
    'execute-booking': {
      airline_id: string;
      booking_id: string;
      /** retry_count + 1 of the booking when this attempt was accepted; a stale attempt does nothing. */
      attempt: number;
      action_id?: string | null;
      /** The task's operation, a field of its own (absent on older jobs = BOOK); never read back from `ref`. */
      operation?: BookingOperation;
      /** Names one amend/rebook request, so its supplier reference is stable across retries. */
      ref?: string;
      /** An automatic retry: accepted when it fires, if the booking is still FAILED. */
      automatic?: boolean;
      /** The lane the task waits in (its action item's priority); absent on older jobs = P3. */
      priority?: TaskPriority;
      /** The booking's type, which names the supplier lane (queue); absent on older jobs = `bookings`. */
      type?: 'HOTEL' | 'FLIGHT';
      /** The task resumed by a supplier's callback (the callback's id): the answer waits on the booking. */
      resume?: string;
      /**
       * A held cancellation's timer sent again for a hold that was shortened (the contract's terms changed): its
       * new end. It names the job apart from the first timer, which is still delayed (BullMQ drops an add of an id it holds).
       */
      hold_until?: string;
    };
  };
  'flight-bookings': JobCatalog['bookings'];
  webhooks: {
    /**
     * Deliver an endpoint's due webhook deliveries in order. A wake-up only: order and per-endpoint concurrency 1
     * come from the endpoint's lease and the deliveries' sequence in Postgres, so a duplicate job does nothing.
     */
    'drain-endpoint': { endpoint_id: string };
  };
  'supplier-changes': {
    /**
     * A supplier told us an airline changed one of our orders (Duffel's webhook event, verified). The job
     * names the change; the worker reads it again from the supplier with the airline's token and decides.
     */
    'airline-change': {
      airline_id: string;
      supplier: 'DUFFEL';
      order_id: string;
      change_id: string;
      event_id?: string;
    };
  };
  invoices: {
    /** Match a posted hotel invoice's lines against the airline's bookings (RECONCILING → RECONCILED | FAILED). */
    'reconcile-invoice': { airline_id: string; invoice_id: string };
  };
}

export type QueueName = keyof JobCatalog;
export type JobName<Q extends QueueName> = keyof JobCatalog[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q>> = JobCatalog[Q][N];

export const QUEUE_NAMES: readonly QueueName[] = [
  'schedules',
  'bookings',
  'flight-bookings',
  'webhooks',
  'supplier-changes',
  'invoices',
];

/**
 * One queue per supplier, so a supplier that asks us to slow down (429/503 with Retry-After) pauses only its
 * own tasks: `bookings` holds hotel tasks (and jobs queued before the split), `flight-bookings` flight tasks.
 */
export type BookingQueue = 'bookings' | 'flight-bookings';
export const BOOKING_QUEUES: readonly BookingQueue[] = ['bookings', 'flight-bookings'];
export const isBookingQueue = (q: string): q is BookingQueue => q === 'bookings' || q === 'flight-bookings';

/** Lanes of the booking queues, most urgent first. */
export type TaskPriority = 'P1' | 'P2' | 'P3' | 'P4';
export const TASK_PRIORITIES: readonly TaskPriority[] = ['P1', 'P2', 'P3', 'P4'];

/** A job ready for the outbox. Job ids are deterministic, so a job relayed twice is added once. */
export interface CatalogJob<Q extends QueueName = QueueName> {
  queue: Q;
  name: JobName<Q>;
  job_id: string;
  data: JobData<Q, JobName<Q>>;
  delay_ms?: number;
  /** The outbox relays lower lanes first: 0 (the default, every job but a booking task), then P1 … P4 as 1 … 4. */
  lane?: number;
}

export function scheduleJob(airlineId: string, scheduleId: string): CatalogJob<'schedules'> {
  return {
    queue: 'schedules',
    name: 'process-schedules',
    job_id: `sched-${scheduleId}`,
    data: { airline_id: airlineId, schedule_id: scheduleId },
  };
}

export function bookingJob(data: JobData<'bookings', 'execute-booking'>, delayMs = 0): CatalogJob<BookingQueue> {
  // The id names booking, task, attempt and kind: BullMQ drops an add whose id it still holds, so a new task
  // (a cancel after a booking) or a manual retry must never share an id with an earlier or delayed job.
  const kind = data.automatic
    ? 'auto'
    : data.resume
      ? `cb-${data.resume}`
      : data.hold_until
        ? `until-${Date.parse(data.hold_until)}`
        : 'run';
  return {
    queue: data.type === 'FLIGHT' ? 'flight-bookings' : 'bookings',
    name: 'execute-booking',
    job_id: `book-${data.booking_id}-${data.ref ?? 'task'}-${data.attempt}-${kind}`,
    data,
    delay_ms: delayMs,
    // A task without a priority runs in the P3 lane.
    lane: 1 + TASK_PRIORITIES.indexOf(data.priority ?? 'P3'),
  };
}

/**
 * The automatic retry of a FAILED booking's task, `delayMs` from now: attempt retry_count + 2 (the attempt its
 * acceptance makes current), named `…-auto`. Built from the task's job when it fails, and again from the booking
 * row by the sweep of overdue retries: the same id both times, so BullMQ drops the second while the first is queued.
 */
export function automaticRetryJob(
  task: Omit<JobData<'bookings', 'execute-booking'>, 'attempt' | 'automatic' | 'resume' | 'hold_until'>,
  retryCount: number,
  delayMs = 0,
): CatalogJob<BookingQueue> {
  const { airline_id, booking_id, action_id, operation, ref, priority, type } = task;
  return bookingJob(
    {
      airline_id,
      booking_id,
      attempt: retryCount + 2,
      action_id: action_id ?? null,
      ...(operation ? { operation } : {}),
      ...(ref ? { ref } : {}),
      ...(priority ? { priority } : {}),
      ...(type ? { type } : {}),
      automatic: true,
    },
    delayMs,
  );
}

/**
 * The timer of a held hotel cancellation: its CANCEL task under the held ref, in the P1 lane (a hold ends at least
 * 15 minutes before the hotel's deadline). `shortened`: an end set after the first timer was queued (terms changed
 * during the hold), named apart from that timer and delayed until then; without it, the timer is sent again at once
 * under the first one's id (a lost timer of an overdue hold).
 */
export function holdTimerJob(
  hold: { airline_id: string; booking_id: string; retry_count: number; action_id: string | null; ref: string },
  shortened?: { hold_until: string; delayMs: number },
): CatalogJob<BookingQueue> {
  return bookingJob(
    {
      airline_id: hold.airline_id,
      booking_id: hold.booking_id,
      attempt: hold.retry_count + 1,
      action_id: hold.action_id,
      operation: 'CANCEL',
      ref: hold.ref,
      priority: 'P1',
      type: 'HOTEL',
      ...(shortened ? { hold_until: shortened.hold_until } : {}),
    },
    shortened?.delayMs ?? 0,
  );
}

export type { BookingOperation };

/** BullMQ priorities of drain jobs: an endpoint whose next delivery is urgent (a P1 booking's event) is drained first. */
export const WEBHOOK_PRIORITY = { urgent: 1, bulk: 5 } as const;

/** One drain job per endpoint and lane at a time (BullMQ drops an add whose id it holds; finished ones are removed). */
export function webhookDrainJobId(endpointId: string, urgent: boolean): string {
  return `whk-${endpointId}-${urgent ? 'u' : 'b'}`;
}

/** One job per change: Duffel's redeliveries of the same event, and the other events naming it, are added once. */
export function airlineChangeJob(data: JobData<'supplier-changes', 'airline-change'>): CatalogJob<'supplier-changes'> {
  return {
    queue: 'supplier-changes',
    name: 'airline-change',
    job_id: `aic-${data.airline_id}-${data.change_id}`,
    data,
  };
}

/** One job per invoice: relayed twice, it is added once; a job for an invoice no longer RECONCILING does nothing. */
export function invoiceJob(airlineId: string, invoiceId: string): CatalogJob<'invoices'> {
  return {
    queue: 'invoices',
    name: 'reconcile-invoice',
    job_id: `inv-${invoiceId}`,
    data: { airline_id: airlineId, invoice_id: invoiceId },
  };
}
