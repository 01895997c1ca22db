import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type Json<T> = ColumnType<T, string, string>;

/** A job to enqueue, written in the transaction that decided it (the outbox relay hands it to BullMQ). */
export interface OutboxTable {
  id: Generated<number>;
  queue: string;
  name: string;
  job_id: string;
  data: Json<Record<string, unknown>>;
  delay_ms: Generated<number>;
  /** Relayed in lane order, then by id: 0 (jobs other than booking tasks) first, then a booking task's P1 … P4. */
  lane: Generated<number>;
  created_at: CreatedAt;
}
