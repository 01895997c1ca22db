import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { bulkInsert } from '../src/bulk';
import {
  billableStays,
  billableStaysQuery,
  billedKeys,
  createInvoice,
  markReconciled,
  staysBeyond,
  storedBilledKeys,
} from '../src/invoices/invoice.repository';

/*
 * An invoice's reconciliation reads what its lines can touch, not the hotel's whole history: the stays overlapping
 * its lines' dates, then beyond them those named by the confirmation numbers the first read leaves unsettled, each
 * by the index made for it, and the nights billed by the earlier invoices whose billed span meets its own. The engine's invoice-reads.unit.test.ts shows the
 * matching comes out the same; this, that the reads give what it assumes.
 */

let t: TestDatabase;
let airline: string;
const HOTEL = 'GDS-JFK-001';

beforeAll(async () => {
  t = await createTestDatabase('invoice_bounded_reads');
  airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Span Air', 'SP')`.execute(t.db);
});
afterAll(() => t.drop());

async function stay(
  employee: string,
  checkIn: string,
  checkOut: string,
  confirmation: string | null,
  property = HOTEL,
  held: { status?: string; hotel?: Record<string, unknown> } = {},
) {
  const id = randomUUID();
  await bulkInsert(
    t.db,
    'bookings',
    {
      booking_id: 'uuid',
      airline_id: 'uuid',
      type: 'text',
      status: 'text',
      source: 'text',
      employee_id: 'text',
      station: 'text',
      checkin_time_local: 'text',
      checkout_time_local: 'text',
      hotel: 'jsonb',
    },
    [
      {
        booking_id: id,
        airline_id: airline,
        type: 'HOTEL',
        status: held.status ?? 'CONFIRMED',
        source: 'SCHEDULE_DIFF',
        employee_id: employee,
        station: 'JFK',
        checkin_time_local: `${checkIn}T18:00:00`,
        checkout_time_local: `${checkOut}T09:00:00`,
        hotel: {
          property_id: property,
          handler_type: 'GDS',
          confirmation_number: confirmation,
          check_in_date: checkIn,
          check_out_date: checkOut,
          ...held.hotel,
        },
      },
    ],
  );
  return id;
}

async function invoice(number: string, lookup: { from: string; to: string } | null) {
  const row = await createInvoice(t.db, {
    airline_id: airline,
    property_id: HOTEL,
    invoice_number: number,
    currency: 'USD',
    line_count: 0,
    total_billed: 0,
    lines_gz: Buffer.from('{}'),
    lines_columns_gz: null,
    lookup,
  });
  return row!.invoice_id;
}

it('reads the stays overlapping the lines’ dates, and beyond them those a confirmation number names', async () => {
  const january = await stay('E1', '2027-01-10', '2027-01-12', 'HX-100-200');
  const overlapsStart = await stay('E2', '2027-02-27', '2027-03-02', null);
  const inside = await stay('E3', '2027-03-10', '2027-03-11', 'HX-300');
  const endsOnFirstNight = await stay('E4', '2027-02-25', '2027-03-01', null);
  const startsOnEnd = await stay('E5', '2027-03-31', '2027-04-02', null);
  const later = await stay('E6', '2027-06-01', '2027-06-03', 'HX-999');
  await stay('E1', '2027-03-10', '2027-03-12', 'HX-300', 'GDS-JFK-002');
  const all = [january, overlapsStart, inside, endsOnFirstNight, startsOnEnd, later];

  // Lines from 1 March (check-in) to 31 March (exclusive).
  const lookup = { from: '2027-03-01', to: '2027-03-31' };
  const overlapping = await billableStays(t.db, airline, HOTEL, { lookup });
  expect(overlapping.map((s) => s.booking_id).sort()).toEqual([overlapsStart, inside].sort());
  // Beyond those dates, the stays a line's confirmation number names by its read key (its digits): January's, and
  // not March's, which the first read has.
  const beyond = await billableStays(t.db, airline, HOTEL, { beyond: lookup, confirmation_keys: ['100200', '300'] });
  expect(beyond.map((s) => s.booking_id)).toEqual([january]);
  // Without a bound (an invoice stored by an earlier release): every stay at the hotel.
  const everything = await billableStays(t.db, airline, HOTEL, null);
  expect(everything.map((s) => s.booking_id).sort()).toEqual([...all].sort());

  // At a hotel with two years of stays, the read takes both arms by their indexes, not every stay of the hotel.
  await sql`
    insert into bookings (airline_id, type, status, source, employee_id, station, checkin_time_local, checkout_time_local, hotel)
    select ${airline}::uuid, 'HOTEL', 'CONFIRMED', 'SCHEDULE_DIFF', 'H' || g, 'JFK', d || 'T18:00:00', (d + 2) || 'T09:00:00',
           jsonb_build_object('property_id', ${HOTEL}::text, 'handler_type', 'GDS', 'confirmation_number', 'HX-' || g,
                              'check_in_date', d::text, 'check_out_date', (d + 2)::text)
      from generate_series(1, 20000) g, lateral (select date '2025-03-01' + (g % 730) as d) x`.execute(t.db);
  await sql`analyze bookings`.execute(t.db);
  const plan = async (bound: Parameters<typeof billableStaysQuery>[2]) =>
    (await sql<{ 'QUERY PLAN': string }>`explain ${billableStaysQuery(airline, HOTEL, bound)}`.execute(t.db)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
  expect(await plan({ lookup })).toMatch(/Index Cond: .*COALESCE\(\(hotel ->> 'check_out_date'.*> '2027-03-01'/);
  expect(await plan({ lookup })).toContain('bookings_hotel_stays_idx');
  expect(await plan({ beyond: lookup, confirmation_keys: ['100200'] })).toMatch(
    /bookings_hotel_confirmation_idx[\s\S]*Index Cond: .*regexp_replace/,
  );
});

it('reads a stay that still holds its room whatever the booking’s status, and none that holds no room', async () => {
  const at = 'GDS-JFK-009';
  const room = { supplier_ref: 'SB-1', supplier_status: 'CONFIRMED' };
  const stayOf = (employee: string, confirmation: string, held: Parameters<typeof stay>[5]) =>
    stay(employee, '2027-03-10', '2027-03-11', confirmation, at, held);
  const confirmed = await stayOf('E1', 'HX-1', {});
  // A roster cancellation sent to review keeps the room and its confirmation number.
  const inReview = await stayOf('E2', 'HX-2', { status: 'NEEDS_REVIEW', hotel: room });
  // A cancellation that failed: the hotel still holds the room.
  const cancelFailed = await stayOf('E3', 'HX-3', { status: 'FAILED', hotel: room });
  // A DIRECT hotel's confirmed rooming-list row.
  const roomingHeld = await stayOf('E4', 'HX-4', {
    status: 'NEEDS_REVIEW',
    hotel: { handler_type: 'DIRECT', rooming_status: 'CONFIRMED', rooming_marking: 'NEW' },
  });
  const modifying = await stayOf('E5', 'HX-5', { status: 'PENDING', hotel: room });
  const cancelled = await stayOf('E6', 'HX-6', {
    status: 'CANCELLED',
    hotel: { ...room, supplier_status: 'CANCELLED' },
  });
  // Holding nothing: a booking that failed, one in review whose room was cancelled, a rooming row cancelled.
  await stayOf('E7', 'HX-7', { status: 'FAILED' });
  await stayOf('E8', 'HX-8', { status: 'NEEDS_REVIEW', hotel: { ...room, supplier_status: 'CANCELLED' } });
  await stayOf('E9', 'HX-9', {
    status: 'NEEDS_REVIEW',
    hotel: { handler_type: 'DIRECT', rooming_status: 'CONFIRMED', rooming_marking: 'CANCELLED' },
  });
  await stayOf('E10', 'HX-10', { status: 'PENDING' });
  const expected = [confirmed, inReview, cancelFailed, roomingHeld, modifying, cancelled].sort();
  const ids = (rows: { booking_id: string }[]) => rows.map((r) => r.booking_id).sort();
  const lookup = { from: '2027-03-01', to: '2027-03-31' };
  expect(ids(await billableStays(t.db, airline, at, { lookup }))).toEqual(expected);
  expect(ids(await billableStays(t.db, airline, at, null))).toEqual(expected);
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];
  expect(
    ids(
      await billableStays(t.db, airline, at, {
        beyond: { from: '2027-04-01', to: '2027-04-30' },
        confirmation_keys: keys,
      }),
    ),
  ).toEqual(expected);
  const review = (await billableStays(t.db, airline, at, { lookup })).find((r) => r.booking_id === inReview);
  expect(review).toMatchObject({ status: 'NEEDS_REVIEW', confirmation_number: 'HX-2' });
});

it('knows whether a hotel has any stay beyond the lines’ dates (else nothing beyond them is read)', async () => {
  const span = { from: '2027-03-01', to: '2027-03-31' };
  await stay('E1', '2027-02-28', '2027-03-02', null, 'GDS-BOS-001');
  await stay('E2', '2027-03-30', '2027-04-01', null, 'GDS-BOS-001');
  expect(await staysBeyond(t.db, airline, 'GDS-BOS-001', span)).toBe(false);
  await stay('E3', '2027-02-27', '2027-03-01', null, 'GDS-BOS-001');
  expect(await staysBeyond(t.db, airline, 'GDS-BOS-001', span)).toBe(true);
  await stay('E4', '2027-03-31', '2027-04-02', null, 'GDS-ORD-001');
  expect(await staysBeyond(t.db, airline, 'GDS-ORD-001', span)).toBe(true);
});

it('reads the nights billed by the earlier invoices whose billed span meets this one’s, and by those without a span', async () => {
  const booking = randomUUID();
  const billed = async (number: string, span: { from: string; to: string } | null, night: string) => {
    const id = await invoice(number, null);
    await sql`insert into invoice_lines (invoice_id, line_number, check_in_date, status, booking_id, billed_amount,
        disputed_amount, disputed_currency, findings, needs_review, billed_keys)
      values (${id}, 1, ${night}, 'MATCHED', ${booking}, 100, 0, 'USD', '[]', '[]', ${JSON.stringify([night])})`.execute(
      t.db,
    );
    await markReconciled(t.db, id, { MATCHED: 1 }, 0, span);
    return id;
  };
  await billed('B-JAN', { from: '2027-01-01', to: '2027-01-31' }, '2027-01-10');
  await billed('B-FEB', { from: '2027-02-01', to: '2027-03-01' }, '2027-02-10');
  await billed('B-OLD', null, '2026-12-10');
  const stored = await sql<{ billed_from: string; billed_to: string }>`
    select billed_from, billed_to from invoices where invoice_number = 'B-FEB'`.execute(t.db);
  expect(stored.rows[0]).toEqual({ billed_from: '2027-02-01', billed_to: '2027-03-01' });

  // A span touching February's last day meets February's (both ends inclusive), not January's.
  expect([...(await billedKeys(t.db, airline, HOTEL, { from: '2027-03-01', to: '2027-03-31' }))].sort()).toEqual([
    `${booking}|2026-12-10`,
    `${booking}|2027-02-10`,
  ]);
  expect([...(await billedKeys(t.db, airline, HOTEL, null))].sort()).toEqual([
    `${booking}|2026-12-10`,
    `${booking}|2027-01-10`,
    `${booking}|2027-02-10`,
  ]);
});

it('gives back the keys of a line as the matching billed them, a part of a penalty paid included', async () => {
  const booking = randomUUID();
  // What a line charging part of a late-cancellation penalty bills (the engine's invoice-matching.ts).
  const keys = [`${booking}|2027-05-10`, `${booking}|LATE_CANCEL:120.5`];
  const id = await invoice('B-PART', null);
  await sql`insert into invoice_lines (invoice_id, line_number, check_in_date, status, booking_id, billed_amount,
      disputed_amount, disputed_currency, findings, needs_review, billed_keys)
    values (${id}, 1, '2027-05-10', 'MATCHED', ${booking}, 120.5, 0, 'USD', '[]', '[]',
      ${JSON.stringify(storedBilledKeys(booking, keys))})`.execute(t.db);
  await markReconciled(t.db, id, { MATCHED: 1 }, 0, { from: '2027-05-10', to: '2027-05-11' });
  const stored = await sql<{ billed_keys: string[] }>`
    select billed_keys from invoice_lines where invoice_id = ${id}`.execute(t.db);
  expect(stored.rows[0]!.billed_keys).toEqual(['2027-05-10', 'LATE_CANCEL:120.5']);
  const read = await billedKeys(t.db, airline, HOTEL, { from: '2027-05-01', to: '2027-05-31' });
  expect(keys.every((k) => read.has(k))).toBe(true);
});
