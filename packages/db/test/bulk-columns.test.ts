import type { BulkColumns, BulkRow } from '../src/bulk';
import {
  BOOKING_CHANGE_COLUMNS,
  BOOKING_COLUMNS,
  BOOKING_EVENT_COLUMNS,
  type BookingTable,
} from '../src/bookings/booking.table';
import { ACTION_ITEM_COLUMNS, AUDIT_EVENT_COLUMNS, type ActionItemTable } from '../src/schedules/schedule.table';

/*
 * The bulk column maps are checked against the table types when this file (and the repository) compiles
 * (`npx tsc`): the @ts-expect-error lines below fail the typecheck if the check stops catching them.
 */

// A column the table does not have.
// @ts-expect-error not a column of bookings
const misspelt = { booking_id: 'uuid', statuss: 'text' } as const satisfies BulkColumns<BookingTable>;
// A Postgres type the column's TS type does not fit.
// @ts-expect-error duty_period_num is a number, not jsonb
const wrongType = { duty_period_num: 'jsonb' } as const satisfies BulkColumns<BookingTable>;
// A required column missing from a row.
// @ts-expect-error item_key is required
const partialRow: BulkRow<ActionItemTable> = {
  airline_id: 'a',
  schedule_id: null,
  source: 's',
  type: 'HOTEL',
  subtype: 'x',
  classification: 'c',
  priority: 'P3',
  disposition: null,
  auto_eligible: false,
  anchors: {},
  source_rows: { day1_row: 1, day2_row: null },
  booking_id: null,
  flight_options_url: null,
  recommended_action: null,
  message: null,
  notes: null,
  irop_ref: null,
  event_at: null,
  details: {},
  disposition_at: null,
};

it('every bulk column map names only columns of its table, with fitting types', () => {
  void [misspelt, wrongType, partialRow];
  const maps = [
    ACTION_ITEM_COLUMNS,
    BOOKING_COLUMNS,
    BOOKING_CHANGE_COLUMNS,
    BOOKING_EVENT_COLUMNS,
    AUDIT_EVENT_COLUMNS,
  ];
  for (const m of maps) expect(Object.keys(m).length).toBeGreaterThan(0);
  expect(BOOKING_COLUMNS.booking_id).toBe('uuid');
});
