import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { readInWindow } from '@crew/engine';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { diffWriteRepo, rosterStateRepo } from '../src';
import { readInWindow as readInWindowSql } from '../src/schedules/window-bookings';

/* bookingsInWindow reads each booking as one text and splits it: it must answer exactly what a column-by-column read does. */

let t: TestDatabase;
let airlineId: string;
beforeAll(async () => {
  t = await createTestDatabase('window_bookings');
  airlineId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Window Air', 'WA')`.execute(
    t.db,
  );
});
afterAll(() => t.drop());

const WINDOW = { start: '2027-03-01', end: '2027-03-31' };

async function book(over: Record<string, unknown>): Promise<void> {
  const row = {
    booking_id: randomUUID(),
    airline_id: airlineId,
    type: 'HOTEL',
    status: 'CONFIRMED',
    source: 'SCHEDULE_DIFF',
    duty_date: '2027-03-10',
    ...over,
  };
  await t.db
    .insertInto('bookings')
    .values(row as never)
    .execute();
}

const byId = <T extends { booking_id: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.booking_id.localeCompare(b.booking_id));

async function bothReads(type: 'HOTEL' | 'FLIGHT') {
  const fast = await diffWriteRepo.bookingsInWindow(t.db, airlineId, type, WINDOW.start, WINDOW.end);
  const byColumn = await diffWriteRepo.bookingsInWindowByColumn(t.db, airlineId, type, WINDOW.start, WINDOW.end);
  return { fast: byId(fast), byColumn: byId(byColumn) };
}

it('answers what the column-by-column read answers: nulls, empty text, look-alikes of its own markers, booleans, integers and dates', async () => {
  const review = {
    status: 'NEEDS_REVIEW',
    manual_override: true,
    pending_cancel: true,
    retry_count: 3,
    employee_id: 'n',
    pairing_number: 'v',
    station: '',
    traveller_email: null,
    duty_period_num: null,
  };
  const flight = {
    type: 'FLIGHT',
    employee_id: 'E2',
    pairing_number: 'P2',
    leg_sequence: 4,
    flight_number: null,
    from_airport: 'LHR',
    to_airport: 'CDG',
    dep_time_local: '2027-03-12T10:00:00Z',
    arr_time_local: '2027-03-12T11:00:00Z',
  };
  await book({
    employee_id: 'E1',
    pairing_number: 'P1',
    duty_period_num: 2,
    station: 'FRA',
    checkin_time_local: '2027-03-10T20:00:00+01:00',
    traveller_email: 'a@x',
  });
  await book(review);
  await book({
    employee_id: 'true',
    pairing_number: 'null',
    station: 'ünïcødé ✈',
    checkin_time_local: 'tab\there',
    checkout_time_local: 'nl\nhere',
  });
  await book(flight);
  // Outside the window: in neither read.
  await book({ duty_date: '2027-04-01', employee_id: 'late' });

  const hotels = await bothReads('HOTEL');
  expect(hotels.fast).toHaveLength(3);
  expect(hotels.fast).toStrictEqual(hotels.byColumn);
  expect(hotels.fast.find((b) => b.status === 'NEEDS_REVIEW')).toMatchObject({ ...review, duty_date: '2027-03-10' });
  const flights = await bothReads('FLIGHT');
  expect(flights.fast).toStrictEqual(flights.byColumn);
  const { type: _type, ...flightColumns } = flight;
  expect(flights.fast).toEqual([
    expect.objectContaining({ ...flightColumns, manual_override: false, retry_count: 0, duty_date: '2027-03-10' }),
  ]);
});

it('a value holding its field separator is still read exactly (the read falls back to column by column)', async () => {
  await book({ employee_id: 'odd\u001fone', pairing_number: 'P\u001f', station: 'X' });
  const hotels = await bothReads('HOTEL');
  expect(hotels.fast).toStrictEqual(hotels.byColumn);
  expect(hotels.fast.some((b) => b.employee_id === 'odd\u001fone' && b.pairing_number === 'P\u001f')).toBe(true);
});

describe('the reads of a diff of the changed pairings alone', () => {
  const other = randomUUID();
  beforeAll(async () => {
    await sql`insert into airlines (airline_id, name, carrier_code) values (${other}, 'Pairing Air', 'PA')`.execute(
      t.db,
    );
    for (const [pairing, date] of [
      ['A1', '2027-03-05'],
      ['A1', '2027-03-06'],
      ['B2', '2027-03-07'],
      ['C3', '2027-04-07'],
      [null, '2027-03-08'],
    ] as const)
      await t.db
        .insertInto('bookings')
        .values({
          booking_id: randomUUID(),
          airline_id: other,
          type: 'HOTEL',
          status: 'CONFIRMED',
          source: 'SCHEDULE_DIFF',
          duty_date: date,
          pairing_number: pairing,
          checkin_time_local: pairing === 'B2' ? '2027-03-08T00:30:00+01:00' : null,
        } as never)
        .execute();
  });

  it('bookingsInWindow with pairing_numbers reads only theirs', async () => {
    const rows = await diffWriteRepo.bookingsInWindow(t.db, other, 'HOTEL', WINDOW.start, WINDOW.end, [
      'A1',
      'C3',
      'Z9',
    ]);
    expect(rows.map((r) => r.pairing_number)).toEqual(['A1', 'A1']);
    expect(await diffWriteRepo.bookingsInWindow(t.db, other, 'HOTEL', WINDOW.start, WINDOW.end, [])).toEqual([]);
    expect(await diffWriteRepo.bookingsInWindow(t.db, other, 'HOTEL', WINDOW.start, WINDOW.end)).toHaveLength(4);
  });

  it('fingerprints each pairing_number of the window: one changes with its own bookings alone, and a writing transaction tells its own writes apart', async () => {
    const before = await rosterStateRepo.windowFingerprints(t.db, other, WINDOW, { ownWrites: false });
    expect([...before.byPairing.keys()].sort()).toEqual(['A1', 'B2']);
    expect(before.datesByPairing).toBeUndefined();
    // Asked for: each pairing_number's first and last duty or check-in date (B2's booking checks in the day after its duty date).
    const dated = await rosterStateRepo.windowFingerprints(t.db, other, WINDOW, { ownWrites: false, dates: true });
    expect(dated.byPairing).toEqual(before.byPairing);
    expect(dated.datesByPairing).toEqual(
      new Map([
        ['A1', ['2027-03-05', '2027-03-06']],
        ['B2', ['2027-03-07', '2027-03-08']],
      ]),
    );
    expect(before.others).toBe(before.all);
    expect(await rosterStateRepo.windowFingerprint(t.db, other, WINDOW)).toBe(before.all);

    await t.db
      .updateTable('bookings')
      .set({ status: 'CANCELLED' })
      .where('airline_id', '=', other)
      .where('pairing_number', '=', 'B2')
      .execute();
    const after = await rosterStateRepo.windowFingerprints(t.db, other, WINDOW, { ownWrites: false });
    expect(after.byPairing.get('A1')).toBe(before.byPairing.get('A1'));
    expect(after.byPairing.get('B2')).not.toBe(before.byPairing.get('B2'));
    expect(after.all).not.toBe(before.all);

    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bookings')
        .values({
          booking_id: randomUUID(),
          airline_id: other,
          type: 'HOTEL',
          status: 'NEEDS_REVIEW',
          source: 'SCHEDULE_DIFF',
          duty_date: '2027-03-09',
          pairing_number: 'D4',
        } as never)
        .execute();
      await trx
        .updateTable('bookings')
        .set({ status: 'CONFIRMED' })
        .where('airline_id', '=', other)
        .where('pairing_number', '=', 'B2')
        .execute();
      const mine = await rosterStateRepo.windowFingerprints(trx, other, WINDOW);
      expect([...mine.byPairing.keys()].sort()).toEqual(['A1', 'B2', 'D4']);
      // Others' row versions are those read before, less the B2 booking this transaction rewrote; D4 has only this transaction's.
      expect(mine.othersByPairing.get('A1')).toBe(after.byPairing.get('A1'));
      expect(mine.othersByPairing.has('B2')).toBe(false);
      expect(mine.othersByPairing.has('D4')).toBe(false);
      expect(mine.others).not.toBe(after.all);
      // The same, for some pairing_numbers alone.
      const some = await rosterStateRepo.pairingFingerprints(trx, other, WINDOW, ['A1', 'D4']);
      expect(some.byPairing).toEqual(new Map([...mine.byPairing].filter(([p]) => p === 'A1' || p === 'D4')));
      expect(some.othersByPairing).toEqual(new Map([['A1', mine.othersByPairing.get('A1')]]));
    });
  });
});

it('reads exactly the bookings the engine says a diff in the window reads (readInWindow), and fingerprints those', async () => {
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Edge Air', 'EA')`.execute(t.db);
  // Around both edges of the window: duty dates and check-ins (after midnight, the day after the duty date) either side.
  const dates = ['2027-02-27', '2027-02-28', '2027-03-01', '2027-03-02', '2027-03-30', '2027-03-31', '2027-04-01'];
  const rows: {
    booking_id: string;
    type: 'HOTEL' | 'FLIGHT';
    duty_date: string | null;
    checkin_time_local: string | null;
  }[] = [];
  for (const duty of [...dates, null])
    for (const checkin of [...dates.map((d) => `${d}T00:30:00+01:00`), null])
      for (const type of ['HOTEL', 'FLIGHT'] as const)
        rows.push({ booking_id: randomUUID(), type, duty_date: duty, checkin_time_local: checkin });
  for (const r of rows)
    await t.db
      .insertInto('bookings')
      .values({
        ...r,
        airline_id: airline,
        status: 'CONFIRMED',
        source: 'SCHEDULE_DIFF',
        pairing_number: `P-${r.type}`,
      } as never)
      .execute();
  for (const type of ['HOTEL', 'FLIGHT'] as const) {
    const wanted = rows
      .filter((r) => r.type === type && readInWindow(r, WINDOW))
      .map((r) => r.booking_id)
      .sort();
    const ids = (list: { booking_id: string }[]) => list.map((r) => r.booking_id).sort();
    expect(ids(await diffWriteRepo.bookingsInWindow(t.db, airline, type, WINDOW.start, WINDOW.end))).toEqual(wanted);
    expect(ids(await diffWriteRepo.bookingsInWindowByColumn(t.db, airline, type, WINDOW.start, WINDOW.end))).toEqual(
      wanted,
    );
  }
  // The fingerprints cover the same rows: a booking read changes them, one not read does not.
  const before = await rosterStateRepo.windowFingerprints(t.db, airline, WINDOW, { ownWrites: false });
  const touch = async (id: string) => {
    await t.db.updateTable('bookings').set({ retry_count: 1 }).where('booking_id', '=', id).execute();
    return rosterStateRepo.windowFingerprints(t.db, airline, WINDOW, { ownWrites: false });
  };
  const afterMidnight = rows.find(
    (r) => r.type === 'HOTEL' && r.duty_date === '2027-02-28' && r.checkin_time_local?.startsWith('2027-03-01'),
  )!;
  const unread = rows.find((r) => !readInWindow(r, WINDOW))!;
  const touched = await touch(afterMidnight.booking_id);
  expect(touched.byPairing.get('P-HOTEL')).not.toBe(before.byPairing.get('P-HOTEL'));
  expect((await touch(unread.booking_id)).all).toBe(touched.all);
});

it('finds hotel bookings by check-in date through the index of those checking in on another day than their duty date', async () => {
  // The read must imply that partial index's predicate word for word, or the planner cannot use it and a window's
  // read scans all the airline's hotel bookings. An airline holding many stays outside the window and a few
  // after-midnight check-ins inside it: the read should take both indexes, never a scan of all its hotel bookings.
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Plan Air', 'PL')`.execute(t.db);
  await sql`insert into bookings (booking_id, airline_id, type, status, source, duty_date, checkin_time_local)
    select gen_random_uuid(), ${airline}, 'HOTEL', 'CONFIRMED', 'SCHEDULE_DIFF', d::date, d::date || 'T20:00:00+01:00'
    from generate_series('2026-01-01'::date, '2026-12-31'::date, '1 day') d, generate_series(1, 20)`.execute(t.db);
  await book({ airline_id: airline, duty_date: '2027-02-28', checkin_time_local: '2027-03-01T00:30:00+01:00' });
  await sql`analyze bookings`.execute(t.db);
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select booking_id from bookings
    where airline_id = ${airline} and type = 'HOTEL' and ${readInWindowSql(WINDOW)}`.execute(t.db);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  expect(plan).toContain('bookings_hotel_checkin_other_day_idx');
  expect(plan).not.toMatch(/Seq Scan/);
  expect(await diffWriteRepo.bookingsInWindow(t.db, airline, 'HOTEL', WINDOW.start, WINDOW.end)).toHaveLength(1);
});
