import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { sql } from '@crew/db';
import { generateRoster, mutateRoster } from '@crew/roster-generator';
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

/** POST /crew/schedules/preview, the dry run of a roster. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('schedule_preview', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const SCOPES = 'events:read events:write schedules:read schedules:write';

let n = 0;
async function airline(opts: { settings?: Record<string, unknown>; stations?: string[] } = {}) {
  n++;
  const t = await onboard(stack, {
    name: `Preview Air ${n}`,
    carrier: `P${String.fromCharCode(64 + n)}`,
    scopes: SCOPES,
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${n}@preview.test`;
  await bookingAccount(stack, t, email);
  await contractStations(stack, t, opts.stations ?? ['JFK'], {
    terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
  });
  return { t, email };
}

async function preview(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules/preview', { method: 'POST', body });
  expect([res.status, res.status === 200 ? '' : res.text]).toEqual([200, '']);
  return res.body;
}

async function submit(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id, 60_000);
  return allActionItems(stack, t.accessToken, res.body.schedule_id);
}

/** Row counts of every table of the database. */
async function tableCounts(): Promise<Record<string, number>> {
  const tables = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(
    stack.database.db,
  );
  const out: Record<string, number> = {};
  for (const { table_name } of tables.rows)
    out[table_name] = Number(
      (await sql<{ n: string }>`select count(*) as n from ${sql.table(table_name)}`.execute(stack.database.db)).rows[0]!
        .n,
    );
  return out;
}

/** What the preview promises of each item, compared with the item a real submission wrote. */
function promised(p: any) {
  return {
    item_key: p.item_key,
    type: p.type,
    subtype: p.subtype,
    classification: p.classification,
    priority: p.priority,
    anchors: p.anchors,
    source_rows: p.source_rows,
    auto_eligible: p.auto_eligible,
    // A new booking's id is made when it is written; an existing (or adopted) one is known.
    booking_id: p.subtype === 'NEW_BOOKING' && p.outcome !== 'ADOPT' ? 'new' : p.booking_id,
    // Items no booking task decides have their disposition and message at once; the others get them from the task.
    settled: p.disposition === null ? null : { disposition: p.disposition, message: p.message },
  };
}
/** An action item's key as the diff made it (the answer carries the row key in its details). */
const keyOf = (real: any) => `${real.classification}:${real.details.row_key}`;

function derived(real: any, previewed: any) {
  return {
    item_key: keyOf(real),
    type: real.type,
    subtype: real.subtype,
    classification: real.classification,
    priority: real.priority,
    anchors: real.anchors,
    source_rows: real.source_rows,
    auto_eligible: real.auto_eligible,
    booking_id: real.subtype === 'NEW_BOOKING' && previewed?.outcome !== 'ADOPT' ? 'new' : real.booking_id,
    settled: previewed?.disposition === null ? null : { disposition: real.disposition, message: real.message },
  };
}

async function expectPreviewMatches(t: Tenant, body: unknown) {
  const p = await preview(t, body);
  const real = await submit(t, body);
  const byKey = new Map<string, any>(p.action_items.map((i: any) => [i.item_key, i]));
  expect(real.map((r) => derived(r, byKey.get(keyOf(r)))).sort((a, b) => (a.item_key < b.item_key ? -1 : 1))).toEqual(
    p.action_items.map(promised).sort((a: any, b: any) => (a.item_key < b.item_key ? -1 : 1)),
  );
  expect(p.counts.action_items).toBe(real.length);
  return p;
}

describe('POST /crew/schedules/preview', () => {
  it('answers the items with what the policy would do and why, with counts on top', async () => {
    const { t, email } = await airline();
    const p = await preview(t, onePairingRoster({ email }));
    expect(p).toMatchObject({
      external_ref: 'roster-1',
      schedule_start_date: '2027-03-10',
      schedule_end_date: '2027-03-16',
      previewed_at: '2027-03-01T00:00:00.000Z',
    });
    expect(p.counts).toEqual({
      action_items: 2,
      by_classification: { NEW_LAYOVER: 1, NEW_DEADHEAD: 1 },
      by_outcome: { AUTO_BOOK: 1, REVIEW: 1 },
      by_disposition: { OPEN: 1, PENDING_REVIEW: 1 },
      audit_events: 0,
    });
    const hotel = p.action_items.find((i: any) => i.type === 'HOTEL');
    expect(hotel).toMatchObject({
      classification: 'NEW_LAYOVER',
      subtype: 'NEW_BOOKING',
      outcome: 'AUTO_BOOK',
      auto_eligible: true,
      disposition: null,
      reason: null,
      hotel: { property_id: 'GDS-JFK-001', contracted_rate: { amount: 180, currency: 'USD' } },
    });
    const flight = p.action_items.find((i: any) => i.type === 'FLIGHT');
    expect(flight).toMatchObject({
      classification: 'NEW_DEADHEAD',
      outcome: 'REVIEW',
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      reason: 'deadhead auto-booking is not enabled: choose a flight option and commit it',
    });
  });

  it('writes nothing: the row count of every table, and the supplier’s reservations, are unchanged', async () => {
    const { t, email } = await airline();
    await submit(t, onePairingRoster({ email }));
    const before = await tableCounts();
    const reservations = (
      await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)
    ).body.reservations.length;
    const moved = onePairingRoster({ email });
    moved.pairings[0]!.duty_periods[0]!.layover!.checkout_time_local = '2027-03-11T10:00:00-05:00';
    const p = await preview(t, moved);
    expect(p.counts.by_classification).toEqual({ LAYOVER_EXTENDED: 1 });
    await preview(t, {
      ...onePairingRoster({ email }),
      pairings: [onePairingRoster({ email, pairing: 'P9' }).pairings[0]],
    });
    expect(await tableCounts()).toEqual(before);
    expect(
      (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
        .reservations.length,
    ).toBe(reservations);
  });

  it('takes the same body and limits as POST /crew/schedules: gzip accepted, validation 422, malformed 400; more than 2000 pairings is 422', async () => {
    const { t, email } = await airline();
    const gz = await http(`${stack.apiUrl}/api/v1/crew/schedules/preview`, {
      method: 'POST',
      token: t.accessToken,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      raw: gzipSync(JSON.stringify(onePairingRoster({ email }))),
    });
    expect(gz.status).toBe(200);
    expect(gz.body.counts.action_items).toBe(2);
    expect(
      (
        await api(t, '/crew/schedules/preview', {
          method: 'POST',
          body: { ...onePairingRoster({ email }), schedule_start_date: 'soon' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api(t, '/crew/schedules/preview', {
          method: 'POST',
          raw: '{"pairings": [',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const big = generateRoster({ pairings: 2001, seed: 3, startDate: '2027-03-05', days: 10, crewPool: 300 });
    const refused = await api(t, '/crew/schedules/preview', { method: 'POST', body: big });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ field: '/pairings', issue: expect.stringContaining('at most 2000 pairings') }),
    ]);
    // The scope of POST /crew/schedules.
    const reader = await onboard(stack, {
      name: 'Reader Air',
      carrier: 'RD',
      scopes: 'events:read schedules:read',
      settings: { schedules_access: true },
    });
    expect((await api(reader, '/crew/schedules/preview', { method: 'POST', body: onePairingRoster() })).status).toBe(
      403,
    );
  });

  it('a preview equals the items the real submission then derives (random rosters and their changes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        async (seed, mutationSeed) => {
          const { t } = await airline({
            stations: ['JFK', 'LHR', 'ORD'],
            settings: {
              deadhead_auto_booking: true,
              booking_modification: true,
              cancellation_execution: true,
              swap_execution: true,
            },
          });
          const first = generateRoster({ pairings: 12, seed, startDate: '2027-03-05', days: 6, crewPool: 20 });
          await expectPreviewMatches(t, first);
          const second = mutateRoster(first, { fraction: 0.5, seed: mutationSeed });
          const p = await expectPreviewMatches(t, second);
          // The changes reach past new bookings: the second roster modifies or cancels what the first booked.
          expect(p.counts.action_items).toBeGreaterThan(0);
          if (process.env.SHOW_PREVIEW_COUNTS) console.log(JSON.stringify(p.counts));
        },
      ),
      { numRuns: 3 },
    );
  });
});
