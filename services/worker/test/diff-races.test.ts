/**
 * A person's change to a booking made while a roster is diffed (after the diff read the bookings, before it wrote)
 * is never overwritten by that diff (spec rule 9: while manual_override is true the diff neither modifies nor
 * cancels the booking). The diff's write is held deterministically: the test holds the airline's booking lock
 * (namespace 7302), which the diff's write transaction takes before it writes anything, after its read.
 */
import { sql } from '@crew/db';
import { PromWorkerMetrics } from '@crew/worker';
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  parsePrometheusText,
  sampleValue,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

jest.setTimeout(90_000);

let stack: Stack;
const metrics = new PromWorkerMetrics();
beforeAll(async () => {
  stack = await startStack('diff_races', { worker: true, workerMetrics: metrics });
});
afterAll(async () => {
  await stack.close();
  metrics.close();
});

/** The worker's count of diffs rolled back and run again (crew_schedule_diff_reruns_total). */
const reruns = async () =>
  sampleValue(parsePrometheusText(await metrics.registry.metrics()), 'crew_schedule_diff_reruns_total');

const TRAVELLER = 'ada@crew.test';
const DAY1 = '2027-03-10';
let n = 0;

async function airline(): Promise<{ t: Tenant; airlineId: string }> {
  const t = await onboard(stack, {
    name: `Race ${n}`,
    carrier: `R${n++}`,
    scopes: 'schedules:read schedules:write events:read events:write',
    settings: { schedules_access: true, cancellation_execution: true },
  });
  await bookingAccount(stack, t, TRAVELLER);
  await contractStations(stack, t, ['JFK']);
  return { t, airlineId: t.airlineId };
}

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const booking = async (t: Tenant, id: string) => (await api(t, `/crew/bookings/${id}`)).body;
const settledAs = (t: Tenant, id: string, statuses: string[]) =>
  waitFor(
    async () => {
      const b = await booking(t, id);
      return statuses.includes(b.status) && b;
    },
    20_000,
    () => `booking ${id} ${statuses.join('/')}`,
  );

async function submit(t: Tenant, body: unknown): Promise<string> {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
}

const withLayover = () => onePairingRoster({ day1: DAY1 });
function withoutLayover() {
  const r = onePairingRoster({ day1: DAY1 });
  delete (r.pairings[0]!.duty_periods[0] as { layover?: unknown }).layover;
  return r;
}
function extendedLayover() {
  const r = onePairingRoster({ day1: DAY1 });
  const l = r.pairings[0]!.duty_periods[0]!.layover!;
  l.checkout_time_local = l.checkout_time_local.replace('T09:00', 'T11:00');
  return r;
}

/** R1: the layover booked and CONFIRMED. */
async function confirmedLayover(t: Tenant): Promise<string> {
  const first = await submit(t, withLayover());
  expect((await waitForSchedule(stack, t.accessToken, first)).status).toBe('COMPLETED');
  const hotel = (await allActionItems(stack, t.accessToken, first, '&type=HOTEL'))[0]!;
  await settledAs(t, hotel.booking_id!, ['CONFIRMED']);
  return hotel.booking_id!;
}

/**
 * Submits `body` with the diff's write held: the airline's booking lock taken by the test, the roster read and
 * diffed, its write transaction waiting for the lock. `meanwhile` runs then; the lock is let go after it.
 */
async function diffedAround(t: Tenant, airlineId: string, body: unknown, meanwhile: () => Promise<void>) {
  const db = stack.database.db;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let lockHeld!: () => void;
  const held = new Promise<void>((r) => (lockHeld = r));
  const holder = db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(7302, hashtext(${airlineId}))`.execute(trx);
    lockHeld();
    await released;
  });
  try {
    await held;
    const id = await submit(t, body);
    // The diff's write transaction waits for the lock: the roster's bookings were read before it.
    await waitFor(
      async () =>
        (
          await sql<{ n: number }>`select count(*)::int as n from pg_locks
            where locktype = 'advisory' and classid = 7302 and not granted
              and database = (select oid from pg_database where datname = current_database())`.execute(db)
        ).rows[0]!.n > 0,
      20_000,
      'the diff waiting for the booking lock',
    );
    await meanwhile();
    release();
    await holder;
    expect((await waitForSchedule(stack, t.accessToken, id)).status).toBe('COMPLETED');
    return id;
  } finally {
    release();
    await holder.catch(() => undefined);
  }
}

it('a booking a person locks (manual_override) while a roster dropping its layover is diffed is not cancelled by that roster', async () => {
  const { t, airlineId } = await airline();
  const b = await confirmedLayover(t);
  const cancels = () => stack.sandbox.sandbox.callCounts()['cancelHotelReservation'] ?? 0;
  const cancelsBefore = cancels();
  const rerunsBefore = await reruns();
  expect(rerunsBefore).toEqual(expect.any(Number));
  const id = await diffedAround(t, airlineId, withoutLayover(), async () => {
    const res = await api(t, `/crew/bookings/${b}`, { method: 'PATCH', body: { manual_override: true } });
    expect(res.status).toBe(202);
  });
  // Its diff was rolled back and run once more, and the worker counted that re-run (on-call watches it).
  expect(await reruns()).toBe(rerunsBefore! + 1);
  // Diffed against the booking as the person left it: locked, so no cancellation item and no cancellation.
  expect((await allActionItems(stack, t.accessToken, id, '&type=HOTEL')).map((i) => i.classification)).toEqual([]);
  const after = await booking(t, b);
  expect(after).toMatchObject({ status: 'CONFIRMED', manual_override: true });
  // Nothing was queued to cancel it either (the sandbox was never asked).
  await new Promise((r) => setTimeout(r, 1000));
  expect(await booking(t, b)).toMatchObject({ status: 'CONFIRMED' });
  expect(cancels()).toBe(cancelsBefore);
});

it('a person’s amend started while a roster changing the same stay is diffed is not overwritten: its task runs to its end', async () => {
  const { t, airlineId } = await airline();
  const b = await confirmedLayover(t);
  let amended: { status: string } | undefined;
  const id = await diffedAround(t, airlineId, extendedLayover(), async () => {
    const res = await api(t, `/crew/bookings/${b}`, {
      method: 'PATCH',
      body: { hotel: { check_out_date: '2027-03-12' } },
    });
    expect(res.status).toBe(202);
    amended = res.body;
  });
  expect(amended).toBeDefined();
  // The diff read the booking as the amend left it (locked by the PATCH): nothing of the roster's for it.
  expect((await allActionItems(stack, t.accessToken, id, '&type=HOTEL')).map((i) => i.classification)).toEqual([]);
  const after = await settledAs(t, b, ['CONFIRMED', 'MODIFIED']);
  expect(after).toMatchObject({ manual_override: true });
  expect(after.hotel.check_out_date ?? after.checkout_time_local).toContain('2027-03-12');
});

it('a retry started while a roster cancelling the booking is diffed is not orphaned: the booking does not stay PENDING without a task', async () => {
  const { t, airlineId } = await airline();
  const b = await confirmedLayover(t);
  // Its last task failed (as a supplier error leaves it): a person may retry it.
  await stack.database.db.updateTable('bookings').set({ status: 'FAILED' }).where('booking_id', '=', b).execute();
  await diffedAround(t, airlineId, withoutLayover(), async () => {
    const res = await api(t, `/crew/bookings/${b}/retry`, { method: 'POST' });
    expect(res.status).toBe(202);
  });
  // The roster, diffed after the retry, cancels the booking: one task runs, and the booking settles.
  await settledAs(t, b, ['CANCELLED']);
});
