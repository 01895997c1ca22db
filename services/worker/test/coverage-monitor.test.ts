import { checkBody, WEBHOOK_EVENT_SCHEMAS } from '@crew/contracts';
import { sql, tenancyRepo, webhookRepo } from '@crew/db';
import { createLogger } from '@crew/platform';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { PromWorkerMetrics } from '../src/operability/metrics';
import { CoverageMonitor, emitCoverageAtRisk, type AtRiskLayover } from '../src/roster-coverage/coverage.monitor';

/** The worker's periodic coverage figures (/metrics) and the coverage.at_risk hook. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('coverage_monitor');
});
afterAll(() => database.drop());

const NOW = new Date('2027-03-10T06:00:00Z');
const logger = createLogger('test', 'silent');
const iso = (hoursFromNow: number) =>
  new Date(NOW.getTime() + hoursFromNow * 3_600_000).toISOString().replace('.000Z', '+00:00');

async function layover(airlineId: string, employee: string, checkinHours: number) {
  await sql`insert into rostered_layovers (airline_id, roster_date, row_key, employee_id, pairing_number, duty_period_num, duty_date, traveller_email, station, checkin_time_local, checkout_time_local, checkin_at)
    values (${airlineId}, ${iso(checkinHours).slice(0, 10)}, ${`${employee}|P1|1`}, ${employee}, 'P1', 1, ${iso(checkinHours).slice(0, 10)}, ${`${employee}@x.test`}, 'JFK', ${iso(checkinHours)}, ${iso(checkinHours + 14)}, ${iso(checkinHours)})`.execute(
    database.db,
  );
}
async function booking(airlineId: string, employee: string, checkinHours: number, status: string) {
  await sql`insert into bookings (airline_id, type, status, source, employee_id, pairing_number, duty_period_num, duty_date, station, checkin_time_local, checkout_time_local)
    values (${airlineId}, 'HOTEL', ${status}, 'SCHEDULE_DIFF', ${employee}, 'P1', 1, ${iso(checkinHours).slice(0, 10)}, 'JFK', ${iso(checkinHours)}, ${iso(checkinHours + 14)})`.execute(
    database.db,
  );
}

it('counts AT_RISK and UNCOVERED layovers of the next 24 h per airline (UNCOVERED within 12 h apart), and reports each newly at-risk layover once', async () => {
  const a = await tenancyRepo.createAirline(database.db, 'Monitor A', 'MA');
  const b = await tenancyRepo.createAirline(database.db, 'Monitor B', 'MB');
  await layover(a.airline_id, 'E1', 2); // UNCOVERED within 12 h
  await layover(a.airline_id, 'E2', 20); // UNCOVERED, later than 12 h
  await layover(a.airline_id, 'E3', 5);
  await booking(a.airline_id, 'E3', 5, 'FAILED'); // AT_RISK
  await layover(a.airline_id, 'E4', 6);
  await booking(a.airline_id, 'E4', 6, 'CONFIRMED'); // COVERED
  await layover(a.airline_id, 'E5', 30); // beyond 24 h: not counted
  await layover(b.airline_id, 'E1', 3);
  await booking(b.airline_id, 'E1', 3, 'NEEDS_REVIEW'); // AT_RISK

  const metrics = new PromWorkerMetrics();
  const events: AtRiskLayover[][] = [];
  let now = NOW;
  const monitor = new CoverageMonitor({
    db: database.db,
    logger,
    report: (f, at) => metrics.setCoverage(f, at),
    // Called per airline, in the transaction that marks its layovers.
    onAtRisk: async (_trx, l) => void events.push(l),
    now: () => now,
  });
  const figures = await monitor.sample();
  expect(figures.sort((x, y) => (x.airline_id === a.airline_id ? -1 : y.airline_id === a.airline_id ? 1 : 0))).toEqual([
    { airline_id: a.airline_id, at_risk: 1, uncovered: 2, uncovered_12h: 1 },
    { airline_id: b.airline_id, at_risk: 1, uncovered: 0, uncovered_12h: 0 },
  ]);
  const text = await metrics.registry.metrics();
  expect(text).toContain(`crew_coverage_uncovered_within_12h{airline="${a.airline_id}",service="worker"} 1`);
  expect(text).toContain(
    `crew_coverage_layovers_next_24h{airline="${a.airline_id}",status="UNCOVERED",service="worker"} 2`,
  );
  expect(text).toContain(
    `crew_coverage_layovers_next_24h{airline="${b.airline_id}",status="AT_RISK",service="worker"} 1`,
  );
  expect(text).toMatch(/crew_coverage_sampled_timestamp_seconds\{service="worker"\} \d+/);

  expect(events).toHaveLength(2);
  expect(
    events
      .flat()
      .map((e) => [e.airline_id, e.layover.employee_id, e.layover.reason])
      .sort(),
  ).toEqual(
    [
      [a.airline_id, 'E3', 'the booking FAILED and awaits retry'],
      [b.airline_id, 'E1', 'the booking awaits review'],
    ].sort(),
  );
  // Still at risk at the next sample: not reported again. E2's booking fails now: E2 is.
  await booking(a.airline_id, 'E2', 20, 'PENDING');
  now = new Date(NOW.getTime() + 60_000);
  await monitor.sample();
  expect(events).toHaveLength(3);
  expect(events[2]!.map((e) => e.layover.employee_id)).toEqual(['E2']);
  await monitor.sample();
  expect(events).toHaveLength(3);
  metrics.close();
});

it('airlines beyond the top 10 are summed as "other" (bounded label cardinality)', () => {
  const metrics = new PromWorkerMetrics();
  metrics.setCoverage(
    Array.from({ length: 15 }, (_, i) => ({ airline_id: `a${i}`, at_risk: i, uncovered: 0, uncovered_12h: 1 })),
  );
  const series = metrics.registry.getSingleMetric('crew_coverage_uncovered_within_12h') as unknown as {
    hashMap: Record<string, { labels: { airline: string }; value: number }>;
  };
  const byAirline = Object.values(series.hashMap).map((v) => [v.labels.airline, v.value]);
  expect(byAirline).toHaveLength(11);
  expect(byAirline).toContainEqual(['other', 5]);
  expect(byAirline).toContainEqual(['a14', 1]);
  metrics.close();
});

it('sends a coverage.at_risk webhook event, valid against its documented schema, to the airline’s subscribed endpoints only', async () => {
  const a = await tenancyRepo.createAirline(database.db, 'Hook A', 'HA');
  const b = await tenancyRepo.createAirline(database.db, 'Hook B', 'HB');
  await webhookRepo.insertEndpoint(database.db, {
    airline_id: a.airline_id,
    url: 'https://hooks.example.com/a',
    description: null,
    event_types: ['coverage.at_risk'],
    secret_enc: 'x',
  });
  await webhookRepo.insertEndpoint(database.db, {
    airline_id: b.airline_id,
    url: 'https://hooks.example.com/b',
    description: null,
    event_types: ['booking.confirmed'],
    secret_enc: 'x',
  });
  for (const t of [a, b]) {
    await layover(t.airline_id, 'H1', 4);
    await booking(t.airline_id, 'H1', 4, 'NEEDS_REVIEW');
  }
  const seen: AtRiskLayover[] = [];
  const monitor = new CoverageMonitor({
    db: database.db,
    logger,
    report: () => undefined,
    onAtRisk: async (trx, l) => (seen.push(...l), emitCoverageAtRisk(trx, l)),
    now: () => NOW,
  });
  await monitor.sample();
  const events = await sql<{
    airline_id: string;
    type: string;
    data: unknown;
    links: unknown;
  }>`select airline_id, type, data, links from webhook_events where type = 'coverage.at_risk'`.execute(database.db);
  expect(events.rows.map((e) => e.airline_id)).toEqual([a.airline_id]);
  const e = events.rows[0]!;
  expect(e.data).toMatchObject({
    employee_id: 'H1',
    station: 'JFK',
    status: 'AT_RISK',
    booking_status: 'NEEDS_REVIEW',
    reason: 'the booking awaits review',
  });
  const sample = {
    id: '00000000-0000-4000-8000-000000000000',
    type: e.type,
    created_at: NOW.toISOString(),
    data: e.data,
    links: e.links,
  };
  expect(checkBody(WEBHOOK_EVENT_SCHEMAS['coverage.at_risk'], sample)).toMatchObject({ ok: true });
  expect(seen.some((s) => s.airline_id === b.airline_id)).toBe(true);
});

it('a pass that fails after marking a layover at risk does not lose its coverage.at_risk event: the next pass sends it, once', async () => {
  const a = await tenancyRepo.createAirline(database.db, 'Lost A', 'LA');
  const b = await tenancyRepo.createAirline(database.db, 'Lost B', 'LB');
  for (const t of [a, b]) {
    await webhookRepo.insertEndpoint(database.db, {
      airline_id: t.airline_id,
      url: `https://hooks.example.com/${t.airline_id}`,
      description: null,
      event_types: ['coverage.at_risk'],
      secret_enc: 'x',
    });
    await layover(t.airline_id, 'L1', 4);
    await booking(t.airline_id, 'L1', 4, 'FAILED');
  }
  const ours = [a.airline_id, b.airline_id];
  let failures = 1;
  const monitor = new CoverageMonitor({
    db: database.db,
    logger,
    report: () => undefined,
    // The first emit fails (the outbox write, or the worker dying before it).
    onAtRisk: async (trx, l) => {
      if (failures > 0 && l.some((x) => ours.includes(x.airline_id))) {
        failures--;
        throw new Error('emit failed');
      }
      await emitCoverageAtRisk(trx, l);
    },
    now: () => NOW,
  });
  const sent = async () =>
    (
      await sql<{ airline_id: string }>`select airline_id from webhook_events
        where type = 'coverage.at_risk' and airline_id = any(${ours}::uuid[])`.execute(database.db)
    ).rows.map((e) => e.airline_id);
  // The pass goes on past the failing airline: the other one's event is sent.
  await monitor.sample();
  expect(await sent()).toHaveLength(1);
  await monitor.sample();
  await monitor.sample();
  expect((await sent()).sort()).toEqual([...ours].sort());
});
