import type { Migration } from 'kysely';
import * as foundation from './2026_11_21_0001_foundation';
import * as configuration from './2026_11_21_0002_configuration';
import * as schedules from './2026_11_21_0003_schedules_and_bookings';
import * as bookingApi from './2026_11_21_0004_booking_api';
import * as openItems from './2026_11_21_0005_open_items_index';
import * as fxRates from './2026_11_23_0001_fx_rates';
import * as rosteredRows from './2026_11_23_0005_rostered_rows';
import * as webhooks from './2026_11_23_0004_webhooks';
import * as roomingLists from './2026_11_23_0006_rooming_lists';
import * as bookingSettledNotify from './2026_11_23_0020_booking_settled_notify';
import * as rosterStateSettled from './2026_11_23_0030_roster_state_settled';
import * as dropActionItemsBookingIx from './2026_11_23_0031_drop_action_items_booking_ix';
import * as bookingCreatedEntry from './2026_11_23_0032_booking_created_entry';
import * as bookingTaskOperation from './2026_11_24_0011_booking_task_operation';
import * as statementForeignKeys from './2026_11_24_0120_statement_foreign_keys';
import * as narrowerIndexes from './2026_11_24_0121_narrower_indexes';
import * as actionItemsJson from './2026_11_24_0200_action_items_json';
import * as identifierCollation from './2026_11_24_0300_identifier_collation';
import * as rosterStateDiffBasis from './2026_11_24_0400_roster_state_diff_basis';
import * as requestedBookingsIndex from './2026_11_24_0500_requested_bookings_index';
import * as dropActionItemsKeyIndex from './2026_11_24_0600_drop_action_items_key_index';
import * as outboxLanes from './2026_11_24_0700_outbox_lanes';
import * as travellerProfiles from './2026_11_25_0100_traveller_profiles';
import * as airlineSuppliers from './2026_11_27_0100_airline_suppliers';
import * as flightFareConditions from './2026_11_27_0300_flight_fare_conditions';
import * as contractRateAccessCode from './2026_11_27_0400_contract_rate_access_code';
import * as consoleUsers from './2026_11_28_0500_console_users';
import * as reviewQueue from './2026_11_28_0600_review_queue';
import * as hotelInvoices from './2026_11_28_0700_hotel_invoices';
import * as reviewSuperseded from './2026_11_28_0710_review_superseded';
import * as costControl from './2026_11_28_0720_cost_control';
import * as supplierOrderSightings from './2026_11_29_0100_supplier_order_sightings';
import * as invoiceLinesLean from './2026_11_29_0200_invoice_lines_lean';
import * as heldCancellationsIndex from './2026_11_29_0300_held_cancellations_index';
import * as leanWriteIndexes from './2026_11_29_0400_lean_write_indexes';
import * as invoiceLinesOfTheirInvoice from './2026_11_30_0100_invoice_lines_of_their_invoice';
import * as invoiceLineColumns from './2026_11_30_0200_invoice_line_columns';
import * as invoiceBoundedReads from './2026_12_01_0100_invoice_bounded_reads';
import * as consoleSessionEnrolment from './2026_12_02_0100_console_session_enrolment';
import * as idempotencyClaimLease from './2026_12_02_0200_idempotency_claim_lease';
import * as hotelCheckinIndex from './2026_12_03_0500_hotel_checkin_index';
import * as reconcilingInvoicesIndex from './2026_12_03_0600_reconciling_invoices_index';
import * as webhookIdleFailingRuns from './2026_12_04_0700_webhook_idle_failing_runs';
import * as webhookRetention from './2026_12_04_0800_webhook_retention';
import * as refreshTokenExpiryIndex from './2026_12_04_0900_refresh_token_expiry_index';
import * as signingKeySealed from './2026_12_04_1000_signing_key_sealed';
import * as reviewDeadline from './2026_12_03_0400_review_deadline';
import * as bookingOrderReference from './2026_12_04_1100_booking_order_reference';
import * as retryJobLeftOutcomes from './2026_12_04_1300_retry_job_left_outcomes';
import * as hotelCheckinOtherDayIndex from './2026_12_04_1400_hotel_checkin_other_day_index';
import * as bookingStrayOrder from './2026_12_05_0500_booking_stray_order';
import * as hotelMovedStays from './2026_12_05_1300_hotel_moved_stays';
import * as hotelMovedStaysRoomKey from './2026_12_05_1400_hotel_moved_stays_room_key';
import * as bookingBeingCancelled from './2026_12_06_0100_booking_being_cancelled';

/** Every migration, by its timestamped name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_configuration': configuration,
  '2026_11_21_0003_schedules_and_bookings': schedules,
  '2026_11_21_0004_booking_api': bookingApi,
  '2026_11_21_0005_open_items_index': openItems,
  '2026_11_23_0001_fx_rates': fxRates,
  '2026_11_23_0005_rostered_rows': rosteredRows,
  '2026_11_23_0004_webhooks': webhooks,
  '2026_11_23_0006_rooming_lists': roomingLists,
  '2026_11_23_0020_booking_settled_notify': bookingSettledNotify,
  '2026_11_23_0030_roster_state_settled': rosterStateSettled,
  '2026_11_23_0031_drop_action_items_booking_ix': dropActionItemsBookingIx,
  '2026_11_23_0032_booking_created_entry': bookingCreatedEntry,
  '2026_11_24_0011_booking_task_operation': bookingTaskOperation,
  '2026_11_24_0120_statement_foreign_keys': statementForeignKeys,
  '2026_11_24_0121_narrower_indexes': narrowerIndexes,
  '2026_11_24_0200_action_items_json': actionItemsJson,
  '2026_11_24_0300_identifier_collation': identifierCollation,
  '2026_11_24_0400_roster_state_diff_basis': rosterStateDiffBasis,
  '2026_11_24_0500_requested_bookings_index': requestedBookingsIndex,
  '2026_11_24_0600_drop_action_items_key_index': dropActionItemsKeyIndex,
  '2026_11_24_0700_outbox_lanes': outboxLanes,
  '2026_11_25_0100_traveller_profiles': travellerProfiles,
  '2026_11_27_0100_airline_suppliers': airlineSuppliers,
  '2026_11_27_0300_flight_fare_conditions': flightFareConditions,
  '2026_11_27_0400_contract_rate_access_code': contractRateAccessCode,
  '2026_11_28_0500_console_users': consoleUsers,
  '2026_11_28_0600_review_queue': reviewQueue,
  '2026_11_28_0700_hotel_invoices': hotelInvoices,
  '2026_11_28_0710_review_superseded': reviewSuperseded,
  '2026_11_28_0720_cost_control': costControl,
  '2026_11_29_0100_supplier_order_sightings': supplierOrderSightings,
  '2026_11_29_0200_invoice_lines_lean': invoiceLinesLean,
  '2026_11_29_0300_held_cancellations_index': heldCancellationsIndex,
  '2026_11_29_0400_lean_write_indexes': leanWriteIndexes,
  '2026_11_30_0100_invoice_lines_of_their_invoice': invoiceLinesOfTheirInvoice,
  '2026_11_30_0200_invoice_line_columns': invoiceLineColumns,
  '2026_12_01_0100_invoice_bounded_reads': invoiceBoundedReads,
  '2026_12_02_0100_console_session_enrolment': consoleSessionEnrolment,
  '2026_12_02_0200_idempotency_claim_lease': idempotencyClaimLease,
  '2026_12_03_0400_review_deadline': reviewDeadline,
  '2026_12_03_0500_hotel_checkin_index': hotelCheckinIndex,
  '2026_12_03_0600_reconciling_invoices_index': reconcilingInvoicesIndex,
  '2026_12_04_0700_webhook_idle_failing_runs': webhookIdleFailingRuns,
  '2026_12_04_0800_webhook_retention': webhookRetention,
  '2026_12_04_0900_refresh_token_expiry_index': refreshTokenExpiryIndex,
  '2026_12_04_1000_signing_key_sealed': signingKeySealed,
  '2026_12_04_1100_booking_order_reference': bookingOrderReference,
  '2026_12_04_1300_retry_job_left_outcomes': retryJobLeftOutcomes,
  '2026_12_04_1400_hotel_checkin_other_day_index': hotelCheckinOtherDayIndex,
  '2026_12_05_0500_booking_stray_order': bookingStrayOrder,
  '2026_12_05_1300_hotel_moved_stays': hotelMovedStays,
  '2026_12_05_1400_hotel_moved_stays_room_key': hotelMovedStaysRoomKey,
  '2026_12_06_0100_booking_being_cancelled': bookingBeingCancelled,
};
