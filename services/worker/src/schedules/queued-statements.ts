import type { BulkWrittenTable, bookingRepo } from '@crew/db';
import type { SliceWriter } from './slice-writer';

/**
 * The statements queued on the write transaction's connection ahead of their use. A failed statement aborts the
 * transaction: the first of their failures that is not the abort itself is the write's cause (write.step causeOf).
 */
export interface QueuedStatements {
  rostered?: Promise<Partial<Record<BulkWrittenTable, number>>>;
  /** The airline's booking lock, the requested bookings the diff's items may adopt, the travellers and audit events. */
  others?: [Promise<void>, Promise<RequestedRow[]>, Promise<unknown>];
  /** The item writer, whose slices are sent ahead too. */
  writer?: SliceWriter;
  /** Reads sent ahead later in the transaction (the window's fingerprints). */
  later?: Promise<unknown>[];
}

export type RequestedRow = Awaited<ReturnType<typeof bookingRepo.requestedLiveBookings>>[number];
