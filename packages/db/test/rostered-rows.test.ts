import { sql } from 'kysely';
import { flattenRoster, rosteredRowsIn, type FlatRoster } from '@crew/engine';
import { generateRoster, mutateRoster } from '@crew/roster-generator';
import { replaceRosteredRows } from '../src/coverage/coverage.repository';
import { createAirline } from '../src/tenancy/tenancy.repository';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/*
 * replaceRosteredRows writes by difference: after any sequence of rosters, an airline's rostered
 * rows are exactly those of writing the last roster's window from nothing (delete the window, COPY every row),
 * and rows outside the window stay.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('rostered_rows');
});
afterAll(() => t.drop());

const START = '2027-03-01';
const base = generateRoster({ pairings: 120, days: 10, crewPool: 150, seed: 7, startDate: START, carrier: 'RR' });
const flat = (f: ReturnType<typeof generateRoster>): FlatRoster => flattenRoster(f);

async function rows(airlineId: string) {
  const l =
    await sql`select roster_date::text, row_key, employee_id, pairing_number, duty_period_num, duty_date::text, traveller_email, station, checkin_time_local, checkout_time_local, checkin_at
    from rostered_layovers where airline_id = ${airlineId} order by employee_id, pairing_number, duty_period_num, roster_date`.execute(
      t.db,
    );
  const d =
    await sql`select roster_date::text, row_key, employee_id, pairing_number, duty_period_num, leg_sequence, traveller_email, from_airport, to_airport, flight_number, dep_time_local, arr_time_local, dep_at
    from rostered_deadheads where airline_id = ${airlineId} order by employee_id, pairing_number, roster_date, leg_sequence`.execute(
      t.db,
    );
  return { layovers: l.rows, deadheads: d.rows };
}

async function fromNothing(airlineId: string, window: { start: string; end: string }, f: FlatRoster) {
  await t.db.transaction().execute(async (trx) => {
    await sql`delete from rostered_layovers where airline_id = ${airlineId} and roster_date between ${window.start} and ${window.end}`.execute(
      trx,
    );
    await sql`delete from rostered_deadheads where airline_id = ${airlineId} and roster_date between ${window.start} and ${window.end}`.execute(
      trx,
    );
    await replaceRosteredRows(trx, airlineId, window, rosteredRowsIn(window, f));
  });
}

it('leaves the same rows as rewriting the window from nothing, over a sequence of changed rosters and windows', async () => {
  const byDifference = await createAirline(t.db, 'Difference Air', 'RD');
  const rewritten = await createAirline(t.db, 'Rewrite Air', 'RW');
  const full = { start: START, end: '2027-03-10' };
  const steps: [ReturnType<typeof generateRoster>, { start: string; end: string }][] = [];
  let roster = base;
  steps.push([roster, full]);
  steps.push([roster, full]);
  for (const [i, fraction] of [0.01, 0.1, 0.3, 0.5].entries()) {
    roster = mutateRoster(roster, { fraction, seed: 100 + i });
    steps.push([roster, i === 2 ? { start: '2027-03-04', end: '2027-03-06' } : full]);
  }
  steps.push([base, full]);
  for (const [r, window] of steps) {
    const f = flat(r);
    await t.db
      .transaction()
      .execute((trx) => replaceRosteredRows(trx, byDifference.airline_id, window, rosteredRowsIn(window, f)));
    await fromNothing(rewritten.airline_id, window, f);
    const [a, b] = [await rows(byDifference.airline_id), await rows(rewritten.airline_id)];
    expect(a.layovers.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  }
});
