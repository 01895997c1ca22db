export * from './database';
export * from './connect';
export { PREPARED } from './prepared';
export { transactionAwaitingQueued } from './transaction';
export { BOOKING_SETTLED_CHANNEL, PgListener, type ListenerOptions } from './listener';
export type * from './tables/tenancy.table';
export type * from './tables/auth.table';
export { sql } from 'kysely';
export * as tenancyRepo from './tenancy.repository';
export * as authRepo from './auth.repository';
export * as travellerRepo from './traveller.repository';
export type { TravellerColumns } from './traveller.repository';
export { settingsOf, SETTINGS_COLUMNS } from './tenancy.repository';
export * as configRepo from './config.repository';
export type * from './tables/config.table';
export type * from './tables/schedule.table';
export type * from './tables/booking.table';
export * as outboxRepo from './outbox.repository';
export * as scheduleRepo from './schedule.repository';
export type { ScheduleCounts, ScheduleFilter, ActionItemFilter } from './schedule.repository';
export * as pipelineRepo from './pipeline.repository';
export * as scheduleLifecycleRepo from './schedule-lifecycle.repository';
export * as rosterStateRepo from './roster-state.repository';
export * as diffWriteRepo from './diff-write.repository';
export type {
  ActionItemInsert,
  BookingInsert,
  BookingChange,
  BookingEventInsert,
  AuditEventInsert,
} from './diff-write.repository';
export { bulkInsert, bulkUpdate, type ColumnTypes, type BulkColumns, type BulkRow, type BulkChange } from './bulk';
export * as bookingRepo from './booking.repository';
export * as fxRepo from './fx.repository';
export * as roomingRepo from './rooming.repository';
export type * from './tables/rooming.table';
export * as coverageRepo from './coverage.repository';
export { analyzeAfterBulkWrite, type BulkWrittenTable } from './planner-statistics';
export {
  decodeRosterState,
  rosterStateText,
  loadDiffState,
  loadRequestedBookings,
  type DiffStateRows,
  type WindowBooking,
} from './diff-state';
export type { CoverageQuery, LayoverCoverageRow, DeadheadCoverageRow } from './coverage.repository';
export type * from './tables/coverage.table';
export type { FxRateRow } from './fx.repository';
export type { BookingFilter, BookingPatch } from './booking.repository';
export { loadBookingFacts, loadFlightFacts } from './policy-context';
export * as webhookRepo from './webhook.repository';
export type { PendingReview } from './webhook.repository';
export type * from './tables/webhook.table';
export { gunzipBytes, gunzipText, gzipJson, gzipText } from './compressed';
export * as supplierSettingsRepo from './supplier-settings.repository';
export type { AirlineSuppliers, AirlineSuppliersWrite } from './supplier-settings.repository';
export type * from './tables/supplier.table';
export * as airlineChangeRepo from './airline-change.repository';
