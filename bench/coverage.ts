/**
 * `npm run bench:coverage`: the coverage query (GET /crew/coverage) for an L airline.
 *
 * Seeding (quick, no roster run): an L roster (generateRoster, 20,000 pairings over 30 days) is flattened and
 * its layovers and DH legs written into rostered_layovers / rostered_deadheads by the diff's own statement
 * (coverageRepo.replaceRosteredRows, timed: that is the write the diff adds; an M roster's is timed too), then
 * one hotel booking per layover and one flight booking per DH leg are inserted by SQL (INSERT … SELECT) with a
 * spread of states: 85 % CONFIRMED, 5 % PENDING, 3 % FAILED, 3 % NEEDS_REVIEW, 1 % CONFIRMED for another
 * checkout, 1 % CANCELLED, 2 % none; plus 2 % bookings the roster dropped (cancellation awaiting review). A
 * second airline gets the same rows, so the airline filter has work to do.
 *
 * Measured: the answer of GET /crew/coverage without HTTP (the SQL gather, the engine's verdict per row, counts
 * per state and station, the page): 72 h windows (the default) starting at each day of the roster, then 168 h
 * windows. Options: BENCH_ITERATIONS (default 60 per window size).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { coverageReport } from '@crew/api';
import { coverageRepo, dropDatabase, openDatabase, sql, tenancyRepo, type Db } from '@crew/db';
import { classifyLayovers, flattenRoster, rosteredRowsIn, type FlatRoster } from '@crew/engine';
import { generateRoster, ROSTER_SIZES } from '@crew/roster-generator';
import { percentile } from './lib/stats';

const START = '2027-03-01';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 60);
const say = (s = '') => process.stdout.write(`${s}\n`);

function flat(size: 'M' | 'L', carrier: string): FlatRoster {
  const r = generateRoster({ ...ROSTER_SIZES[size], seed: 1, startDate: START, carrier });
  return flattenRoster(r);
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const v = await f();
  return [v, performance.now() - t];
}

async function seedBookings(db: Db, airlineId: string): Promise<void> {
  // The bucket of a row decides its booking: deterministic, set-based.
  await sql`insert into bookings (airline_id, type, status, source, pending_cancel, employee_id, pairing_number, duty_period_num, duty_date, traveller_email, station, checkin_time_local, checkout_time_local)
    select airline_id, 'HOTEL', case when b < 85 or b = 99 then 'CONFIRMED' when b < 90 then 'PENDING' when b < 93 then 'FAILED' when b < 96 then 'NEEDS_REVIEW' else 'CANCELLED' end,
      'SCHEDULE_DIFF', false, employee_id, pairing_number, duty_period_num, duty_date, traveller_email, station, checkin_time_local,
      case when b = 99 then (checkout_time_local::timestamptz + interval '1 day')::text else checkout_time_local end
    from (select *, abs(hashtext(row_key)) % 100 as b from rostered_layovers where airline_id = ${airlineId}) r where b not in (97, 98)`.execute(
    db,
  );
  // Dropped by the roster, cancellation awaiting review.
  await sql`insert into bookings (airline_id, type, status, source, pending_cancel, employee_id, pairing_number, duty_period_num, duty_date, traveller_email, station, checkin_time_local, checkout_time_local)
    select airline_id, 'HOTEL', 'NEEDS_REVIEW', 'SCHEDULE_DIFF', true, employee_id, 'GONE' || pairing_number, duty_period_num, duty_date, traveller_email, station, checkin_time_local, checkout_time_local
    from rostered_layovers where airline_id = ${airlineId} and abs(hashtext(row_key || 'x')) % 100 < 2`.execute(db);
  await sql`insert into bookings (airline_id, type, status, source, employee_id, pairing_number, duty_date, leg_sequence, traveller_email, from_airport, to_airport, flight_number, dep_time_local, arr_time_local)
    select airline_id, 'FLIGHT', case when b < 80 then 'CONFIRMED' when b < 95 then 'NEEDS_REVIEW' else 'PENDING' end, 'SCHEDULE_DIFF', employee_id, pairing_number, roster_date, leg_sequence, traveller_email, from_airport, to_airport, flight_number, dep_time_local, arr_time_local
    from (select *, abs(hashtext(row_key)) % 100 as b from rostered_deadheads where airline_id = ${airlineId}) r where b < 98`.execute(
    db,
  );
}

async function main(): Promise<void> {
  const url = `postgres://postgres@127.0.0.1:5432/crew_bench_coverage_${randomBytes(4).toString('hex')}`;
  const db = await openDatabase(url, { max: 4 });
  try {
    const window = { start: START, end: '2027-03-30' };
    say(`[bench] generating and flattening the L and M rosters`);
    const l = flat('L', 'XY');
    const m = flat('M', 'MM');
    say(
      `[bench] L: ${l.layovers.length.toLocaleString('en-US')} crew layovers, ${l.deadheads.length.toLocaleString('en-US')} crew DH legs; M: ${m.layovers.length.toLocaleString('en-US')} layovers, ${m.deadheads.length.toLocaleString('en-US')} DH legs`,
    );
    const airline = await tenancyRepo.createAirline(db, 'Bench L Air', 'XY');
    const other = await tenancyRepo.createAirline(db, 'Bench other air', 'ZZ');
    const mAir = await tenancyRepo.createAirline(db, 'Bench M Air', 'MM');
    const write = async (id: string, f: FlatRoster) =>
      (
        await timed(() =>
          db
            .transaction()
            .execute((trx) => coverageRepo.replaceRosteredRows(trx, id, window, rosteredRowsIn(window, f))),
        )
      )[1];
    const lFirst = await write(airline.airline_id, l);
    const lAgain = await write(airline.airline_id, l);
    await write(other.airline_id, l);
    const mFirst = await write(mAir.airline_id, m);
    const mAgain = await write(mAir.airline_id, m);
    say(
      `[bench] replaceRosteredRows (the diff's added write): L ${Math.round(lFirst)} ms first, ${Math.round(lAgain)} ms rewritten; M ${Math.round(mFirst)} ms first, ${Math.round(mAgain)} ms rewritten`,
    );
    const [, seedMs] = await timed(async () => {
      await seedBookings(db, airline.airline_id);
      await seedBookings(db, other.airline_id);
      await sql`analyze`.execute(db);
    });
    const bookings = Number((await sql<{ n: string }>`select count(*) as n from bookings`.execute(db)).rows[0]!.n);
    say(`[bench] seeded ${bookings.toLocaleString('en-US')} bookings by SQL in ${(seedMs / 1000).toFixed(1)} s`);

    const results: string[][] = [];
    for (const hours of [72, 168]) {
      const samples: number[] = [];
      const sqlSamples: number[] = [];
      let rows = 0;
      let counts = {};
      for (let i = 0; i < ITERATIONS; i++) {
        const day = 1 + (i % (30 - Math.ceil(hours / 24)));
        const from = new Date(`2027-03-${String(day).padStart(2, '0')}T00:00:00Z`);
        const to = new Date(from.getTime() + hours * 3_600_000);
        const rowsOnly = performance.now();
        const gathered = await coverageRepo.layoverCoverage(db, airline.airline_id, { from, to });
        sqlSamples.push(performance.now() - rowsOnly);
        void gathered;
        const t0 = performance.now();
        const classified = classifyLayovers(await coverageRepo.layoverCoverage(db, airline.airline_id, { from, to }));
        const report = coverageReport(classified, (r) => r.station, { hours, limit: 50 });
        samples.push(performance.now() - t0);
        rows = Math.max(rows, classified.length);
        if (i === 0) counts = report.counts;
      }
      results.push([
        `${hours} h`,
        rows.toLocaleString('en-US'),
        `${Math.round(percentile(samples, 50))} ms`,
        `${Math.round(percentile(samples, 99))} ms`,
        `${Math.round(percentile(sqlSamples, 50))} ms`,
        JSON.stringify(counts),
      ]);
    }
    say('');
    say(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${ITERATIONS} answers per window size`,
    );
    say(
      `load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' / ')}`,
    );
    say('| window | layovers in window (max) | p50 | p99 | SQL alone p50 | counts of the first window |');
    say('|---|---|---|---|---|---|');
    for (const r of results) say(`| ${r.join(' | ')} |`);
  } finally {
    await db.destroy();
    // BENCH_KEEP_DB=1 keeps the seeded database (to EXPLAIN the query); drop it yourself.
    if (process.env.BENCH_KEEP_DB === '1') say(`[bench] kept ${url}`);
    else await dropDatabase(url);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
