// Plumbing: the database's types and connection, bulk writes, prepared statements, the settle listener.
export * from './database';
export * from './connect';
export { MAX_PREPARED_TEXTS, PREPARED } from './prepared';
export { transactionAwaitingQueued } from './transaction';
export { BOOKING_SETTLED_CHANNEL, PgListener, type ListenerOptions } from './listener';
export { sql } from 'kysely';
export {
  bulkInsert,
  bulkUpdate,
  copyInsert,
  type ColumnTypes,
  type BulkColumns,
  type BulkRow,
  type BulkChange,
} from './bulk';
export { analyzeAfterBulkWrite, type BulkWrittenTable } from './planner-statistics';
export { gunzipBytes, gunzipText, gzipBytes, gzipJson, gzipText } from './compressed';
export type { ReviewStateOf, ReviewSettingsFacts, StoredReviewFacts } from './review-state';

// Tenancy, auth and travellers.
export * as tenancyRepo from './tenancy/tenancy.repository';
export { settingsOf, SETTINGS_COLUMNS } from './tenancy/tenancy.repository';
export type * from './tenancy/tenancy.table';
export * as authRepo from './auth/auth.repository';
export type * from './auth/auth.table';
export * as travellerRepo from './travellers/traveller.repository';
export type { TravellerColumns } from './travellers/traveller.repository';
export type * from './travellers/traveller.table';

// An airline's configuration and what its booking policy reads of it.
export * as configRepo from './config/config.repository';
export * as airlinePolicyRepo from './config/airline-policy.repository';
export * as reviewSettingsRepo from './config/review-settings.repository';
export * as costSettingsRepo from './config/cost-settings.repository';
export type { StoredCostSettings } from './config/cost-settings.repository';
export type { StoredReviewSettings } from './config/review-settings.repository';
export type * from './config/config.table';

// Schedules: intake, the processing lifecycle, the roster state and the diff's write.
export * as scheduleRepo from './schedules/schedule.repository';
export type { ScheduleCounts, ScheduleFilter, ActionItemFilter } from './schedules/schedule.repository';
export * as scheduleLifecycleRepo from './schedules/schedule-lifecycle.repository';
export * as rosterStateRepo from './schedules/roster-state.repository';
export * as diffWriteRepo from './schedules/diff-write.repository';
export * as reviewRepo from './schedules/review.repository';
export type { QueueFilter, QueueSort, ReviewWrite } from './schedules/review.repository';
export type { KeyPosition } from './keyset';
export type {
  ActionItemInsert,
  BookingInsert,
  BookingChange,
  BookingEventInsert,
  AuditEventInsert,
} from './schedules/diff-write.repository';
export type * from './schedules/schedule.table';
// The review queue's stored fields kept right: due_by after a settings change, the escalation's due-soon mark.
export * as reviewWritesRepo from './schedules/review-writes.repository';
export type { DueBySettings, DueSoonItem } from './schedules/review-writes.repository';

// Bookings and the airline's own changes to them.
export * as bookingRepo from './bookings/booking.repository';
export * as cancellationHoldRepo from './bookings/cancellation-hold.repository';
export type { OverdueHold } from './bookings/cancellation-hold.repository';
export type { BookingFilter, BookingPatch, SettlementWrite } from './bookings/booking.repository';
export * as retryJobRepo from './bookings/retry-job.repository';
export * as idempotencyRepo from './bookings/idempotency.repository';
export * as airlineChangeRepo from './bookings/airline-change.repository';
export type * from './bookings/booking.table';

// Webhooks and the job outbox.
export * as webhookRepo from './webhooks/webhook.repository';
export type { PendingReview } from './webhooks/webhook.repository';
export type * from './webhooks/webhook.table';
export * as outboxRepo from './webhooks/outbox.repository';
export type * from './webhooks/outbox.table';

// Rooming lists, roster coverage, exchange rates, supplier settings.
export * as roomingRepo from './rooming/rooming.repository';
export type * from './rooming/rooming.table';
export * as coverageRepo from './coverage/coverage.repository';
export * as spendRepo from './reports/spend.repository';
export type { SpendEntryRow } from './reports/spend.repository';
export type { CoverageQuery, LayoverCoverageRow, DeadheadCoverageRow } from './coverage/coverage.repository';
export type * from './coverage/coverage.table';
export * as fxRepo from './fx/fx.repository';
export type { FxRateRow } from './fx/fx.repository';
export * as supplierSettingsRepo from './suppliers/supplier-settings.repository';
export * as orderSightingRepo from './suppliers/order-sighting.repository';
export type { AirlineSuppliers, AirlineSuppliersWrite } from './suppliers/supplier-settings.repository';
export type * from './suppliers/supplier.table';

// The travel desk's console: its people, invitations, sessions and settings.
export * as consoleUserRepo from './console/console-user.repository';
export type * from './console/console.table';

// Hotel invoices checked against the bookings.
export * as invoiceRepo from './invoices/invoice.repository';
export { lineColumnsText, linesOfColumns } from './invoices/line-columns';
export { RECONCILIATION_FAILED, visibleInvoiceError } from './invoices/invoice-errors';
export type { BillableStayRow, InvoiceContractRow, ReconciledInvoiceLine } from './invoices/invoice.repository';
export type * from './invoices/invoice.table';
