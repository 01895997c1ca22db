import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, type QueueName } from './catalog';

/** Finished jobs are kept a while for the dashboard, then trimmed. */
export const DEFAULT_JOB_OPTIONS = {
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 20000 },
} as const;

export type Queues = Record<QueueName, Queue>;

/**
 * Attempts cover infrastructure failures only (Postgres or Redis gone mid-job); supplier failures are
 * handled by the booking engine's own retry schedule (AUTO_RETRY_DELAYS).
 */
const ATTEMPTS: Record<QueueName, { attempts: number; backoff: { type: 'exponential'; delay: number } }> = {
  schedules: { attempts: 8, backoff: { type: 'exponential', delay: 2000 } },
  bookings: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
  'flight-bookings': { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
  // A drain job is a wake-up; its deliveries' own retries are in Postgres (webhook backoff).
  webhooks: { attempts: 1, backoff: { type: 'exponential', delay: 1000 } },
  // A change read or accepted at the supplier is retried on a transient failure; the periodic check is the backstop.
  'supplier-changes': { attempts: 5, backoff: { type: 'exponential', delay: 5000 } },
  // Postgres gone mid-reconciliation is retried a few times; the last failure marks the invoice FAILED.
  invoices: { attempts: 3, backoff: { type: 'exponential', delay: 2000 } },
};

/** One BullMQ Queue per catalog queue, sharing a producer connection and the stack's prefix. */
export function createQueues(connection: Redis, prefix: string): Queues {
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...ATTEMPTS[name] },
      });
      // Connection errors surface where they matter (the outbox relay's retries, /readyz); unhandled here they only print.
      queue.on('error', () => undefined);
      return [name, queue];
    }),
  ) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
