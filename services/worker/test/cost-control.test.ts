/**
 * Cancel in time, and the hold on roster cancellations (docs/cost-control.md), end to end: rosters over HTTP, the
 * worker's diff and booking tasks, the supplier sandbox's calls counted. The layover is at JFK (America/New_York),
 * whose clocks went forward on Sunday 14 March 2027: the contract's deadline falls on Monday 15 March, the day
 * after the change, at 18:00 EDT = 22:00Z (the day before's offset would read it as 23:00Z).
 */
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  request,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';
import { sql } from '@crew/db';
import { resendOverdueHolds } from '@crew/worker';
import {
  airlineWithHotels,
  DAY1,
  DEADLINE,
  invoiceLine,
  londonLayover,
  movedStays,
  NIGHT,
  reconciledInvoice,
  TERMS,
  TRAVELLER,
  type Channel,
} from './moved-stays';

jest.setTimeout(90_000);

let stack: Stack;
let clock = new Date('2027-03-13T12:00:00Z');

beforeAll(async () => {
  stack = await startStack('cost_control', { worker: true, now: () => clock });
});
afterAll(() => stack.close());

let carrier = 0;
async function airline(cost: Record<string, unknown> = {}, settings: Record<string, boolean> = {}): Promise<Tenant> {
  const t = await onboard(stack, {
    name: `Cost ${carrier}`,
    // Two characters: C0..C9, CA..CZ, then D0..DZ.
    carrier: `${'CD'[Math.floor(carrier / 36)]}${(carrier++ % 36).toString(36).toUpperCase()}`,
    scopes: 'schedules:read schedules:write events:read events:write',
    settings: { schedules_access: true, cancellation_execution: true, booking_modification: true, ...settings },
  });
  await bookingAccount(stack, t, TRAVELLER);
  // LHR's hotel has no terms: a layover moved there books it.
  await contractStations(stack, t, ['JFK', 'LHR'], { rate: NIGHT });
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  const bases = (await api('/crew/config/hotels')).body.bases as {
    base_station: string;
    hotels: { hotel_config_id: number }[];
  }[];
  const hotel = bases.find((b) => b.base_station === 'JFK')!.hotels[0]!.hotel_config_id;
  const contract = (await api(`/crew/config/hotels/${hotel}/contracts`)).body.contracts[0].contract_id;
  const patched = await api(`/crew/config/hotels/${hotel}/contracts/${contract}`, { method: 'PATCH', body: TERMS });
  expect(patched.status).toBe(200);
  expect(patched.body.hotel_time_zone).toBe('America/New_York');
  if (Object.keys(cost).length)
    expect((await api('/crew/config/cost', { method: 'PUT', body: cost })).status).toBe(200);
  return t;
}

const withLayover = () => onePairingRoster({ day1: DAY1 });
/** The same layover key moved to London: Friday 19 March 2027, 20:00 to Saturday 09:00 GMT. */
const movedToLondon = () => londonLayover(DAY1);
function withoutLayover() {
  const r = onePairingRoster({ day1: DAY1 });
  delete (r.pairings[0]!.duty_periods[0] as { layover?: unknown }).layover;
  return r;
}

async function processed(t: Tenant, body: unknown, at: string) {
  clock = new Date(at);
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  const id = res.body.schedule_id as string;
  const status = await waitForSchedule(stack, t.accessToken, id);
  const items = await allActionItems(stack, t.accessToken, id, '&type=HOTEL');
  return { id, status, items };
}

const booking = async (t: Tenant, id: string) =>
  (await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, { token: t.accessToken })).body;
const cancels = () => stack.sandbox.sandbox.callCounts()['cancelHotelReservation'] ?? 0;

async function bookedLayover(t: Tenant): Promise<string> {
  const first = await processed(t, withLayover(), '2027-03-13T12:00:00Z');
  expect(first.items.map((i) => i.classification)).toEqual(['NEW_LAYOVER']);
  const id = first.items[0]!.booking_id!;
  await waitFor(
    async () => (await booking(t, id)).status === 'CONFIRMED',
    15_000,
    () => `booking ${id} confirmed`,
  );
  return id;
}

/** An action item as GET /crew/action-items/{action_id} answers it. */
const item = async (t: Tenant, actionId: string) =>
  (await http(`${stack.apiUrl}/api/v1/crew/action-items/${actionId}`, { token: t.accessToken })).body;

/** The hold's timer fires now (its delayed job promoted), and has run. */
async function timerFires(id: string): Promise<void> {
  const [timer] = (await stack.queues.bookings.getJobs(['delayed'])).filter((j) => j?.data.booking_id === id);
  expect(timer).toBeDefined();
  await timer!.promote();
  await waitFor(
    async () => (await timer!.getState()) === 'completed',
    15_000,
    () => `timer of ${id} run`,
  );
}

/** The queue's record of the booking's cancellation task (or another operation's): the lane it was queued in. */
async function cancellationLane(bookingId: string, operation = 'CANCEL'): Promise<string | undefined> {
  const jobs = await stack.queues.bookings.getJobs(['completed', 'active', 'waiting', 'prioritized', 'delayed']);
  return jobs.find((j) => j?.data.booking_id === bookingId && j.data.operation === operation)?.data.priority;
}

/** The spend report's JFK group for March 2027 (GET /crew/reports/spend). */
async function spendAtJfk(t: Tenant) {
  const res = await http(`${stack.apiUrl}/api/v1/crew/reports/spend?from=2027-03-01&to=2027-03-31`, {
    token: t.accessToken,
  });
  return res.body.groups.find((g: { key: string }) => g.key === 'JFK');
}

const settledAs = async (t: Tenant, id: string, status: string) =>
  waitFor(
    async () => {
      const b = await booking(t, id);
      return b.status === status && b;
    },
    20_000,
    () => `booking ${id} ${status}`,
  );

describe('cancel in time', () => {
  it('a roster cancellation whose deadline is less than 24 hours away runs in the P1 lane and records the fee it avoided', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    const before = cancels();
    // Monday 12:00Z: ten hours before the deadline, four days before the check-in (the item itself is P3).
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    expect(dropped.items).toHaveLength(1);
    expect(dropped.items[0]).toMatchObject({ classification: 'LAYOVER_CANCELLED', priority: 'P3' });
    expect(dropped.items[0]!.message).toContain('in time');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(await cancellationLane(id)).toBe('P1');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    expect(cancels() - before).toBe(1);
    expect(await spendAtJfk(t)).toMatchObject({ penalties_avoided: NIGHT, penalties_paid: { amount: 0 } });
  });

  it('after the deadline (read in the hotel zone across the daylight-saving change) records hotel.cancellation_penalty and says so', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    // 22:30Z: after 18:00 EDT (22:00Z) on the day after the change; the day before's offset (EST) would say 23:00Z.
    const dropped = await processed(t, withoutLayover(), '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    // The fee is owed however fast the cancellation runs: the lane stays the item's own.
    expect(await cancellationLane(id)).toBe('P3');
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED' });
    expect(item!.message).toContain('after the hotel');
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
    expect(await spendAtJfk(t)).toMatchObject({ penalties_paid: NIGHT, penalties_avoided: { amount: 0 } });
  });

  it('with after_deadline REVIEW a late roster cancellation goes to a person, due at the deadline, and nothing is cancelled', async () => {
    const t = await airline({ after_deadline: 'REVIEW' });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T22:30:00Z');
    expect(dropped.items[0]).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      due_by: DEADLINE,
    });
    expect(dropped.items[0]!.message).toContain('late cancellation fee 180.00 USD');
    expect((await booking(t, id)).status).toBe('NEEDS_REVIEW');
    expect(cancels()).toBe(before);
  });

  it('its review item stays due at the deadline when a person assigns it and when the review settings change; an ordinary item is dated again', async () => {
    const t = await airline({ after_deadline: 'REVIEW' });
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
    await bookedLayover(t);
    const dropped = await processed(t, withoutLayover(), '2027-03-15T22:30:00Z');
    const item = dropped.items[0]!;
    expect(item).toMatchObject({ review_status: 'OPEN', due_by: DEADLINE });
    // An ordinary item left for a person: a stay injected at a station with no hotel configuration (P2, no event).
    const ordinary = await api('/crew/action-items', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        anchors: { traveller_email: TRAVELLER, employee_id: 'E1', pairing_number: 'IROP1' },
        hotel: { city: 'ORD', check_in_date: '2027-03-25', num_nights: 1 },
      },
    });
    expect(ordinary.status).toBe(202);
    expect(ordinary.body).toMatchObject({ review_status: 'OPEN', priority: 'P2' });
    const dueOf = async (actionId: string) => (await api(`/crew/action-items/${actionId}`)).body.due_by as string;

    const assigned = await api(`/crew/action-items/${item.action_id}/actions`, {
      method: 'POST',
      body: { action: 'ASSIGN', assignee: 'desk@air.test' },
    });
    expect(assigned.status).toBe(202);
    expect(assigned.body).toMatchObject({ review_status: 'OPEN', assignee: 'desk@air.test', due_by: DEADLINE });
    expect((await api('/crew/config/review', { method: 'PUT', body: {} })).status).toBe(200);
    expect(await dueOf(item.action_id)).toBe(DEADLINE);
    const put = await api('/crew/config/review', {
      method: 'PUT',
      body: { lead_time_minutes: 5, priority_targets_minutes: { P2: 7, P3: 9 } },
    });
    expect(put.status).toBe(200);
    expect(await dueOf(item.action_id)).toBe(DEADLINE);
    // The settings still date the ordinary item: its creation plus P2's new target.
    const created = Date.parse(ordinary.body.created_at as string);
    expect(Math.abs(Date.parse(await dueOf(ordinary.body.action_id)) - (created + 7 * 60_000))).toBeLessThan(5_000);
  });
});

describe('a cancellation decided in time but made after the deadline (the supplier down until then)', () => {
  const fault = async (body: Record<string, unknown>) =>
    expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);

  /** The booking's task failed at the supplier; its automatic retry runs at `at`, after the deadline. */
  async function retriedAt(t: Tenant, id: string, at: string): Promise<void> {
    await settledAs(t, id, 'FAILED');
    // Decided in time: the booking stores the fee it is to avoid.
    const stored = await stack.database.db
      .selectFrom('bookings')
      .select(['cancellation'])
      .where('booking_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.cancellation).toMatchObject({ penalty: null, penalty_avoided: NIGHT });
    let retry: Awaited<ReturnType<typeof stack.queues.bookings.getJobs>>[number] | undefined;
    await waitFor(
      async () => {
        const delayed = await stack.queues.bookings.getJobs(['delayed']);
        retry = delayed.find((j) => j?.data.booking_id === id && j.data.automatic);
        return retry !== undefined;
      },
      15_000,
      () => `automatic retry of ${id} queued`,
    );
    clock = new Date(at);
    await retry!.promote();
  }

  it('a roster cancellation records the late fee, not a fee avoided', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.cancel', outcome: 'error', count: 1 });
    // An hour before the deadline: decided in time.
    const dropped = await processed(t, withoutLayover(), '2027-03-15T21:00:00Z');
    await retriedAt(t, id, '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED' });
    expect(item!.message).toContain('2027-03-15T22:30:00.000Z, after its cancellation deadline');
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
    expect(await spendAtJfk(t)).toMatchObject({ penalties_paid: NIGHT, penalties_avoided: { amount: 0 } });
  });

  it('a move records the late fee of the old room, not a fee avoided', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.cancel', outcome: 'error', count: 1 });
    const moved = await processed(t, movedToLondon(), '2027-03-15T21:00:00Z');
    await retriedAt(t, id, '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'MODIFIED');
    expect(b.hotel.property_id).toBe('GDS-LHR-001');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
  });

  it('a cancellation the supplier refuses goes to a person due at the deadline, through an ASSIGN too', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.cancel', outcome: 'reject', count: 1 });
    // Two days before the deadline: by the review rules alone (P3, the check-in days away) it would be due sooner.
    const dropped = await processed(t, withoutLayover(), '2027-03-13T22:00:00Z');
    await settledAs(t, id, 'NEEDS_REVIEW');
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', review_status: 'OPEN', due_by: DEADLINE });
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
    const assigned = await api(`/crew/action-items/${item!.action_id}/actions`, {
      method: 'POST',
      body: { action: 'ASSIGN', assignee: 'desk@air.test' },
    });
    expect(assigned.status).toBe(202);
    expect(assigned.body.due_by).toBe(DEADLINE);
  });

  it('made in time after a retry: the fee is still avoided', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.cancel', outcome: 'error', count: 1 });
    await processed(t, withoutLayover(), '2027-03-15T21:00:00Z');
    await retriedAt(t, id, '2027-03-15T21:01:00Z');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
  });
});

describe('a layover the roster moves to another city cancels the old room under its terms', () => {
  it('in time, with the deadline less than 24 hours away: the move runs in the P1 lane, is not held, and records the fee it avoided', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    // Ten hours before the JFK deadline, four days before the check-in (the item itself is P3).
    const moved = await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    expect(moved.items).toHaveLength(1);
    expect(moved.items[0]).toMatchObject({ classification: 'LAYOVER_CITY_CHANGE', priority: 'P3', held_until: null });
    const b = await settledAs(t, id, 'MODIFIED');
    expect(b.hotel.property_id).toBe('GDS-LHR-001');
    expect(await cancellationLane(id, 'AMEND')).toBe('P1');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    expect(cancels() - before).toBe(1);
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item!.message).toContain('in time');
  });

  it('after the deadline: the move goes ahead even with after_deadline REVIEW, and records hotel.cancellation_penalty', async () => {
    const t = await airline({ after_deadline: 'REVIEW' });
    const id = await bookedLayover(t);
    const before = cancels();
    const moved = await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'MODIFIED');
    expect(b.hotel.property_id).toBe('GDS-LHR-001');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    // The fee is owed however fast the move runs: the lane stays the item's own.
    expect(await cancellationLane(id, 'AMEND')).toBe('P3');
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED' });
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
    expect(cancels() - before).toBe(1);
  });
});

describe('the old hotel’s invoice of a layover moved to another city', () => {
  const reconciled = (t: Tenant, number: string, property: string, lines: Record<string, unknown>[]) =>
    reconciledInvoice(stack, t, number, property, lines);
  const line = (n: number, extra: Record<string, unknown>) => invoiceLine(n, { employee_id: 'E1', ...extra });

  it('moved after the deadline: the old hotel’s late-cancellation fee matches the stay there, and the new hotel’s night the stay there', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    const oldNumber = (await booking(t, id)).hotel.confirmation_number as string;
    await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'MODIFIED');
    expect(b.hotel.property_id).toBe('GDS-LHR-001');
    const atJfk = await reconciled(t, 'JFK-1', 'GDS-JFK-001', [
      line(1, { confirmation_number: oldNumber, fees: [{ type: 'LATE_CANCEL', amount: NIGHT }] }),
      // The fee again, on the guest alone: paid already.
      line(2, { fees: [{ type: 'LATE_CANCEL', amount: NIGHT }] }),
    ]);
    expect(atJfk).toMatchObject([
      { status: 'MATCHED', booking_id: id, disputed: { amount: 0 } },
      { status: 'DUPLICATE_LINE', booking_id: id, disputed: { amount: 180 } },
    ]);
    expect(await movedStays(stack, id)).toMatchObject([
      { property_id: 'GDS-JFK-001', confirmation_number: oldNumber, check_in_date: DAY1, cancellation_penalty: NIGHT },
    ]);
    const atLhr = await reconciled(t, 'LHR-1', 'GDS-LHR-001', [line(1, { nights: 1, nightly_rate: NIGHT })]);
    expect(atLhr).toMatchObject([{ status: 'MATCHED', booking_id: id, disputed: { amount: 0 } }]);
  });

  it('moved in time: a charge from the old hotel is disputed as charged after a timely cancellation, not as no booking', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    await settledAs(t, id, 'MODIFIED');
    const atJfk = await reconciled(t, 'JFK-2', 'GDS-JFK-001', [line(1, { nights: 1, nightly_rate: NIGHT })]);
    expect(atJfk).toMatchObject([{ status: 'CHARGED_AFTER_TIMELY_CANCEL', booking_id: id, disputed: { amount: 180 } }]);
  });
});

describe('a layover moved to another city whose new room is not booked', () => {
  const fault = async (body: Record<string, unknown>) =>
    expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);
  /** The sandbox's rooms not cancelled (every airline of this file books the same traveller). */
  const liveRooms = async () =>
    (
      (await http(`${stack.sandboxUrl}/_control/reservations?kind=hotel&traveller_email=${TRAVELLER}`)).body
        .reservations as { status: string }[]
    ).filter((r) => r.status !== 'CANCELLED').length;

  it('refused: the old room reads cancelled with its late fee recorded, and BOOK_HOTEL is offered', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.book', outcome: 'reject', count: 1 });
    const moved = await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'NEEDS_REVIEW');
    expect(b.hotel.supplier_status).toBe('CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
    expect(item!.available_actions).toContain('BOOK_HOTEL');
    expect(item!.available_actions).not.toContain('ACCEPT_PRICE');
  });

  it('timed out: the old room reads cancelled with its fee, and a DELETE cancels the room the timed-out call made', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    await fault({ operation: 'hotel.book', outcome: 'timeout', count: 1 });
    await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    const b = await settledAs(t, id, 'FAILED');
    expect(b.hotel).toMatchObject({ supplier_status: 'CANCELLED', cancellation_penalty: NIGHT });
    // Live now: the London room the timed-out call made.
    const live = await liveRooms();
    const del = await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, { method: 'DELETE', token: t.accessToken });
    expect(del.body.status).toBe('CANCELLED');
    expect(await liveRooms()).toBe(live - 1);
  });
});

describe('a layover moved between a GDS and a DIRECT hotel', () => {
  /** JFK's and LHR's hotels on the given channels; JFK's contract has the terms (read in New York time). */
  const airlineWith = (channels: { JFK: Channel; LHR: Channel }): Promise<Tenant> =>
    airlineWithHotels(stack, 'Cost', 'H', channels);

  /** The booking's rooming-list rows, oldest first, with the hotel each list goes to. */
  const roomingRows = (bookingId: string) =>
    stack.database.db
      .selectFrom('rooming_rows as r')
      .innerJoin('rooming_lists as l', 'l.list_id', 'r.list_id')
      .innerJoin('hotel_configs as h', 'h.hotel_config_id', 'l.hotel_config_id')
      .select(['r.marking', 'r.state', 'h.property_id'])
      .where('r.booking_id', '=', bookingId)
      .orderBy('r.row_id')
      .execute();

  it('GDS to DIRECT: the old room is cancelled at the supplier under its terms, the new hotel gets a NEW row', async () => {
    const t = await airlineWith({ JFK: 'GDS', LHR: 'DIRECT' });
    const id = await bookedLayover(t);
    const before = cancels();
    const moved = await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    expect(moved.items[0]).toMatchObject({ classification: 'LAYOVER_CITY_CHANGE' });
    await waitFor(
      async () => (await roomingRows(id)).length === 1,
      15_000,
      () => `row of ${id} placed`,
    );
    expect(await roomingRows(id)).toEqual([{ marking: 'NEW', state: 'QUEUED', property_id: 'CREWINN-LHR' }]);
    expect(cancels() - before).toBe(1);
    const b = await booking(t, id);
    expect(b.hotel).toMatchObject({ property_id: 'CREWINN-LHR', cancellation_penalty_avoided: NIGHT });
    expect(b.hotel.supplier_ref).toBeUndefined();
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    // Ten hours before the JFK deadline: the move runs in P1, and the item says what the old room's cancellation cost.
    expect(await cancellationLane(id, 'AMEND')).toBe('P1');
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item!.message).toContain("on the hotel's rooming list");
    expect(item!.message).toContain('the room at JFK cancelled in time');
    // The old hotel's invoice finds the stay there, cancelled in time: a night it charges is disputed as such.
    const atJfk = await reconciledInvoice(stack, t, 'JFK-3', 'GDS-JFK-001', [
      invoiceLine(1, { employee_id: 'E1', nights: 1, nightly_rate: NIGHT }),
    ]);
    expect(atJfk).toMatchObject([{ status: 'CHARGED_AFTER_TIMELY_CANCEL', booking_id: id }]);
  });
});

describe('a stay at another property than the configured one', () => {
  it('a roster cancellation after the configured hotel’s deadline cancels with no fee, as a DELETE does', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    // The room is at another JFK hotel than the one configured there now (as a stay booked before the station's
    // hotel was replaced would be): the configured hotel's terms are not its terms.
    await sql`update bookings set hotel = (hotel - 'contract_id') || '{"property_id": "GDS-JFK-002"}'::jsonb
      where booking_id = ${id}`.execute(stack.database.db);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T22:30:00Z');
    expect(dropped.items[0]!.message ?? '').not.toContain('deadline');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    expect(cancels() - before).toBe(1);
  });
});

describe('the hold on roster cancellations', () => {
  it('a layover the next roster brings back within the hold is kept: no supplier call, the item AUTO_BOOKED', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.status).toMatchObject({ status: 'COMPLETED', poll_recommended: false });
    expect(dropped.items[0]).toMatchObject({
      classification: 'LAYOVER_CANCELLED',
      disposition: null,
      held_until: '2027-03-14T12:30:00.000Z',
    });
    expect((await booking(t, id)).status).toBe('CONFIRMED');

    const back = await processed(t, withLayover(), '2027-03-14T12:10:00Z');
    expect(back.items).toEqual([]);
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: 'AUTO_BOOKED', held_until: null });
    expect(held!.message).toContain('the roster brought the layover back');
    const b = await booking(t, id);
    expect(b.status).toBe('CONFIRMED');
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    expect(cancels()).toBe(before);
  });

  it('a layover back within the hold with another stay: the hold is withdrawn and the booking amended, as a live one’s would be', async () => {
    const t = await airline({ cancel_hold_minutes: 30 }, { booking_modification: true });
    const id = await bookedLayover(t);
    const calls = () => stack.sandbox.sandbox.callCounts();
    const before = { cancels: cancels(), amends: calls()['amendHotelReservation'] ?? 0 };
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-14T12:30:00.000Z' });

    const later = withLayover();
    const checkin = `${DAY1}T17:00:00-05:00`;
    later.pairings[0]!.duty_periods[0]!.layover!.checkin_time_local = checkin;
    const back = await processed(t, later, '2027-03-14T12:10:00Z');
    expect(back.items).toHaveLength(1);
    expect(back.items[0]).toMatchObject({ classification: 'LAYOVER_DATE_CHANGE', booking_id: id });
    const b = await settledAs(t, id, 'MODIFIED');
    expect(b.hotel.checkin_time_local).toBe(checkin);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: 'AUTO_BOOKED', held_until: null });
    expect(held!.message).toContain('the roster brought the layover back with another stay');
    expect((calls()['amendHotelReservation'] ?? 0) - before.amends).toBe(1);
    expect(cancels()).toBe(before.cancels);
  });

  it('a hold that runs out makes exactly one cancellation (in P1, released 15 minutes before the deadline)', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    // Two seconds before the hold's latest end (the deadline less 15 minutes): the hold is that short.
    const dropped = await processed(t, withoutLayover(), '2027-03-15T21:44:58Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-15T21:45:00.000Z' });
    clock = new Date('2027-03-15T21:45:05Z');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(await cancellationLane(id)).toBe('P1');
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null });
    // A roster bringing the layover back now finds nothing held: it is too late, and still one cancellation.
    await processed(t, withLayover(), '2027-03-15T21:46:00Z');
    await new Promise((r) => setTimeout(r, 500));
    expect(cancels() - before).toBe(1);
  });
});

describe('a held cancellation is judged when it is made: at its release, under the terms in force then', () => {
  /** The hold's delayed timer job, run at `at` (BullMQ would run it at hold_until, hours away in real time). */
  async function runTimer(id: string, at: string): Promise<void> {
    clock = new Date(at);
    const timers = (await stack.queues.bookings.getJobs(['delayed'])).filter((j) => j?.data.booking_id === id);
    expect(timers).toHaveLength(1);
    await timers[0]!.promote();
  }

  /** PATCHes the JFK contract's terms at `at`. */
  async function patchTerms(t: Tenant, at: string, body: Record<string, unknown>): Promise<void> {
    clock = new Date(at);
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
    const hotel = (await api('/crew/config/hotels')).body.bases[0].hotels[0].hotel_config_id;
    const contract = (await api(`/crew/config/hotels/${hotel}/contracts`)).body.contracts[0].contract_id;
    const patched = await api(`/crew/config/hotels/${hotel}/contracts/${contract}`, { method: 'PATCH', body });
    expect(patched.status).toBe(200);
  }

  /** The contract now wants notice by noon five days before: Sunday 14 March 12:00 EDT (16:00Z), already past. */
  const earlierDeadline = (t: Tenant) =>
    patchTerms(t, '2027-03-15T13:00:00Z', { cancellation_deadline: { days_before: 5, local_time: '12:00' } });

  it('terms moving the deadline inside the hold shorten it to end 15 minutes before: released in time, one cancellation', async () => {
    const t = await airline({ cancel_hold_minutes: 240 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-15T16:00:00.000Z' });
    // Notice now by 10:00 EDT four days before (14:00Z today): the hold must end by 13:45Z.
    await patchTerms(t, '2027-03-15T13:00:00Z', { cancellation_deadline: { days_before: 4, local_time: '10:00' } });
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: null, held_until: '2027-03-15T13:45:00.000Z' });
    // A timer for the new end, beside the first one (for 16:00Z, which will find nothing held), run at that end.
    const timers = (await stack.queues.bookings.getJobs(['delayed'])).filter((j) => j?.data.booking_id === id);
    expect(timers.map((j) => j.data.hold_until ?? null).sort()).toEqual(['2027-03-15T13:45:00.000Z', null]);
    clock = new Date('2027-03-15T13:45:05Z');
    await timers.find((j) => j.data.hold_until)!.promote();
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    await new Promise((r) => setTimeout(r, 500));
    expect(cancels() - before).toBe(1);
  });

  it('a fee changed during the hold: the release avoids the fee the terms in force charge', async () => {
    const t = await airline({ cancel_hold_minutes: 240 });
    const id = await bookedLayover(t);
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    const fee = { amount: 50, currency: 'USD' };
    await patchTerms(t, '2027-03-15T13:00:00Z', { late_cancellation_fee: { type: 'AMOUNT', amount: fee } });
    // The deadline is as it was: the hold still ends at 16:00Z.
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: null, held_until: '2027-03-15T16:00:00.000Z' });
    await runTimer(id, '2027-03-15T16:00:05Z');
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(fee);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
  });

  it('terms changed during the hold to a deadline now past: released at once, it records the late fee and says so', async () => {
    const t = await airline({ cancel_hold_minutes: 240 });
    const id = await bookedLayover(t);
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-15T16:00:00.000Z' });
    // No hold may run past the new deadline, which has passed: the hold ends now, and its release is late.
    await earlierDeadline(t);
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null });
    expect(item!.message).toContain("after the hotel's cancellation deadline (12:00 America/New_York on 2027-03-14)");
    expect(item!.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
  });

  it('with after_deadline REVIEW that release hands it to a person, due at the deadline, and nothing is cancelled', async () => {
    const t = await airline({ cancel_hold_minutes: 240, after_deadline: 'REVIEW' });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-15T16:00:00.000Z' });
    await earlierDeadline(t);
    const b = await settledAs(t, id, 'NEEDS_REVIEW');
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      due_by: '2027-03-14T16:00:00.000Z',
      held_until: null,
    });
    expect(item!.message).toContain('late cancellation fee 180.00 USD; a person decides whether to cancel');
    await new Promise((r) => setTimeout(r, 500));
    expect(cancels()).toBe(before);
  });
  it('that review item stays due at the deadline when a person assigns it and when the review settings change', async () => {
    const t = await airline({ cancel_hold_minutes: 240, after_deadline: 'REVIEW' });
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
    const id = await bookedLayover(t);
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    await earlierDeadline(t);
    await settledAs(t, id, 'NEEDS_REVIEW');
    const actionId = dropped.items[0]!.action_id;
    const due = '2027-03-14T16:00:00.000Z';
    const dueOf = async () => (await api(`/crew/action-items/${actionId}`)).body.due_by as string;
    expect(await dueOf()).toBe(due);
    const assigned = await api(`/crew/action-items/${actionId}/actions`, {
      method: 'POST',
      body: { action: 'ASSIGN', assignee: 'desk@air.test' },
    });
    expect(assigned.status).toBe(202);
    expect(assigned.body).toMatchObject({ review_status: 'OPEN', assignee: 'desk@air.test', due_by: due });
    const put = await api('/crew/config/review', {
      method: 'PUT',
      body: { lead_time_minutes: 5, priority_targets_minutes: { P2: 7, P3: 9 } },
    });
    expect(put.status).toBe(200);
    expect(await dueOf()).toBe(due);
  });

  it('a booking someone locked during the hold is not handed to a person either: the hold ends kept', async () => {
    const t = await airline({ cancel_hold_minutes: 240, after_deadline: 'REVIEW' });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    // Locked by a path that leaves the hold as it is (written directly): the release is the last line of defence.
    await stack.database.db
      .updateTable('bookings')
      .set({ manual_override: true })
      .where('booking_id', '=', id)
      .execute();
    await earlierDeadline(t);
    await waitFor(
      async () => (await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL'))[0]!.held_until === null,
      15_000,
      () => `hold of ${id} ended`,
    );
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED', held_until: null });
    expect(item!.review_status).not.toBe('OPEN');
    expect(item!.message).toContain('manual_override');
    const b = await booking(t, id);
    expect(b).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    const row = await stack.database.db
      .selectFrom('bookings')
      .select(['pending_cancel'])
      .where('booking_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.pending_cancel).toBe(false);
    expect(cancels()).toBe(before);
  });
});

describe("a held cancellation is released under the airline's levers in force then", () => {
  it('cancellation execution switched off during the hold: the release hands it to a person, due at the deadline, and cancels nothing', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-14T12:30:00.000Z' });
    const off = await request(stack, 'PATCH /ops/v1/airlines/:airline_id/settings', {
      token: stack.opsToken,
      params: { airline_id: t.airlineId },
      body: { cancellation_execution: false },
    });
    expect(off.status).toBe(200);
    clock = new Date('2027-03-14T12:30:05Z');
    const [timer] = (await stack.queues.bookings.getJobs(['delayed'])).filter((j) => j?.data.booking_id === id);
    await timer!.promote();
    const b = await settledAs(t, id, 'NEEDS_REVIEW');
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      due_by: DEADLINE,
      held_until: null,
    });
    expect(item!.message).toContain('cancellation execution is not enabled');
    await new Promise((r) => setTimeout(r, 500));
    expect(cancels()).toBe(before);
  });
});

describe('a hold whose timer job is lost (Redis keeps nothing on disk)', () => {
  it('the overdue-hold sweep sends the timer again: one cancellation, and a second pass sends nothing', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-14T12:30:00.000Z' });
    // The delayed timer job is lost, as a Redis restart would lose it.
    const timers = (await stack.queues.bookings.getJobs(['delayed'])).filter((j) => j?.data.booking_id === id);
    expect(timers).toHaveLength(1);
    await timers[0]!.remove();
    // Within a minute of the hold's end nothing is sent; past it, the timer is sent again and the hold released.
    const sweep = () => resendOverdueHolds({ db: stack.database.db, relay: stack.relay, now: () => clock });
    clock = new Date('2027-03-14T12:30:30Z');
    expect(await sweep()).toBe(0);
    clock = new Date('2027-03-14T12:31:30Z');
    expect(await sweep()).toBe(1);
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(await sweep()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(cancels() - before).toBe(1);
  });
});

describe('a cancellation that finds nothing reserved', () => {
  const fault = async (body: Record<string, unknown>) =>
    expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);

  it.each([
    ['after the deadline', '2027-03-15T22:30:00Z'],
    ['in time', '2027-03-14T12:00:00Z'],
  ])(
    'a DELETE %s of a booking the supplier refused records no fee and no fee avoided, and says nothing of one',
    async (_when, at) => {
      const t = await airline();
      await fault({ operation: 'hotel.book', outcome: 'reject', count: 1 });
      const first = await processed(t, withLayover(), '2027-03-13T12:00:00Z');
      const id = first.items[0]!.booking_id!;
      expect((await settledAs(t, id, 'NEEDS_REVIEW')).hotel.supplier_ref).toBeUndefined();
      const before = cancels();
      clock = new Date(at);
      const res = await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, { method: 'DELETE', token: t.accessToken });
      expect(res.status).toBe(202);
      const b = await settledAs(t, id, 'CANCELLED');
      expect(b.hotel.cancellation_penalty).toBeUndefined();
      expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
      const [item] = await allActionItems(stack, t.accessToken, first.id, '&type=HOTEL');
      expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED', message: 'nothing was reserved at the supplier' });
      expect(cancels()).toBe(before);
      expect(await spendAtJfk(t)).toBeUndefined();
    },
  );
});

describe('a cancellation the airline injects (POST /crew/action-items)', () => {
  const inject = (t: Tenant, classification: string, extra: Record<string, unknown> = {}) =>
    http(`${stack.apiUrl}/api/v1/crew/action-items`, {
      method: 'POST',
      token: t.accessToken,
      body: {
        type: 'HOTEL',
        classification,
        anchors: { traveller_email: TRAVELLER },
        hotel: { city: 'JFK', check_in_date: DAY1, num_nights: 1 },
        ...extra,
      },
    });
  /** The airline injects `classification` for the booking `id` at `at`: accepted for that booking, which ends CANCELLED. */
  async function cancelledByInjection(
    t: Tenant,
    id: string,
    at: string,
    classification: string,
    extra: Record<string, unknown> = {},
  ) {
    clock = new Date(at);
    const res = await inject(t, classification, extra);
    expect(res.status).toBe(202);
    expect(res.body.booking_id).toBe(id);
    return { booking: await settledAs(t, id, 'CANCELLED'), actionId: res.body.action_id as string };
  }

  it('an IROP cancellation of a roster booking after the deadline records the fee, as the roster’s would, and the spend report counts it', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    const before = cancels();
    const { booking: b, actionId } = await cancelledByInjection(t, id, '2027-03-15T22:30:00Z', 'IROP_HOTEL_CANCEL', {
      source: 'IROP',
      irop_ref: 'IROP-77',
    });
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    expect(await cancellationLane(id)).toBe('P2');
    const injected = await item(t, actionId);
    expect(injected).toMatchObject({ disposition: 'AUTO_CANCELLED' });
    expect(injected.message).toContain('late cancellation fee 180.00 USD recorded on the booking');
    expect(cancels() - before).toBe(1);
    expect(await spendAtJfk(t)).toMatchObject({ penalties_paid: NIGHT, penalties_avoided: { amount: 0 } });
  });

  it('an injected booking cancelled by injection in time, the deadline hours away: P1, the fee avoided; neither held nor sent to a person', async () => {
    const t = await airline({ cancel_hold_minutes: 30, after_deadline: 'REVIEW' });
    clock = new Date('2027-03-13T12:00:00Z');
    const made = await inject(t, 'NEW_LAYOVER');
    expect(made.status).toBe(202);
    const id = made.body.booking_id as string;
    await settledAs(t, id, 'CONFIRMED');
    const before = cancels();
    // Monday 12:00Z: ten hours before the deadline (18:00 New York time = 22:00Z).
    const { booking: b, actionId } = await cancelledByInjection(t, id, '2027-03-15T12:00:00Z', 'LAYOVER_CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty).toBeUndefined();
    expect(await cancellationLane(id)).toBe('P1');
    const injected = await item(t, actionId);
    expect(injected).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null });
    expect(injected.message).toContain('in time for the hotel');
    expect(cancels() - before).toBe(1);
    expect(await spendAtJfk(t)).toMatchObject({ penalties_avoided: NIGHT, penalties_paid: { amount: 0 } });
  });
});

describe('an explicit cancellation of a booking whose roster cancellation is held or awaits a person', () => {
  const body = (classification: string) => ({
    type: 'HOTEL',
    classification,
    anchors: { traveller_email: TRAVELLER },
    hotel: { city: 'JFK', check_in_date: DAY1, num_nights: 1 },
  });
  const post = (t: Tenant, path: '/crew/action-items' | '/crew/bookings/request', classification: string) =>
    http(`${stack.apiUrl}/api/v1${path}`, { method: 'POST', token: t.accessToken, body: body(classification) });
  /** The two ways the roster's cancellation waits: held (a hold of 30 min), or sent to a person (late, REVIEW). */
  const WAITS = {
    held: {
      cost: { cancel_hold_minutes: 30 },
      droppedAt: '2027-03-15T12:00:00Z',
      item: { disposition: null, held_until: '2027-03-15T12:30:00.000Z' },
      cancelAt: '2027-03-15T12:10:00Z',
    },
    review: {
      cost: { after_deadline: 'REVIEW' },
      droppedAt: '2027-03-15T22:30:00Z',
      item: { disposition: 'PENDING_REVIEW', review_status: 'OPEN' },
      cancelAt: '2027-03-15T22:40:00Z',
    },
  } as const;
  /**
   * A booked layover the roster drops, its cancellation waiting (`wait`), then the airline's own cancellation
   * through `path` ten minutes later, accepted for that booking.
   */
  async function cancelledWhileWaiting(
    wait: keyof typeof WAITS,
    path: '/crew/action-items' | '/crew/bookings/request',
    classification: string,
  ) {
    const w = WAITS[wait];
    const t = await airline(w.cost);
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), w.droppedAt);
    expect(dropped.items[0]).toMatchObject(w.item);
    clock = new Date(w.cancelAt);
    const res = await post(t, path, classification);
    expect(res.status).toBe(202);
    expect(res.body.booking_id).toBe(id);
    return { t, id, before, dropped, res };
  }

  it('an injected cancellation of a held booking is the one cancellation: made now, the held item taken over, the timer sends nothing', async () => {
    const { t, id, before, dropped, res } = await cancelledWhileWaiting(
      'held',
      '/crew/action-items',
      'LAYOVER_CANCELLED',
    );
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(await item(t, res.body.action_id)).toMatchObject({ disposition: 'AUTO_CANCELLED' });
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null, superseded_by: res.body.action_id });
    expect(held!.message).toContain(res.body.action_id);
    // Nothing of the roster's is left in flight.
    const progress = await http(`${stack.apiUrl}/api/v1/crew/schedules/${dropped.id}/processing-status`, {
      token: t.accessToken,
    });
    expect(progress.body).toMatchObject({ status: 'COMPLETED', poll_recommended: false });
    // The hold's end passes: nothing is held any more, nothing is sent again, the sweep finds nothing.
    clock = new Date('2027-03-15T12:30:05Z');
    await timerFires(id);
    clock = new Date('2027-03-15T12:40:00Z');
    expect(await resendOverdueHolds({ db: stack.database.db, relay: stack.relay, now: () => clock })).toBe(0);
    expect(await booking(t, id)).toMatchObject({ status: 'CANCELLED' });
    expect(cancels() - before).toBe(1);
    // Cancelled now: a second cancellation finds nothing to cancel.
    const again = await post(t, '/crew/action-items', 'LAYOVER_CANCELLED');
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe('Nothing to cancel');
  });

  it('a requested cancellation of a held booking is the one cancellation, and the held item gets its disposition from it', async () => {
    const { t, id, before, dropped } = await cancelledWhileWaiting(
      'held',
      '/crew/bookings/request',
      'LAYOVER_CANCELLED',
    );
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    const [held] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(held).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null });
    clock = new Date('2027-03-15T12:30:05Z');
    await timerFires(id);
    expect(cancels() - before).toBe(1);
    const again = await post(t, '/crew/bookings/request', 'LAYOVER_CANCELLED');
    expect(again.status).toBe(422);
  });

  it('an injected cancellation of a booking whose late cancellation awaits a person carries it out; the review item is superseded', async () => {
    const { t, id, before, dropped, res } = await cancelledWhileWaiting(
      'review',
      '/crew/action-items',
      'IROP_HOTEL_CANCEL',
    );
    const b = await settledAs(t, id, 'CANCELLED');
    // The airline's own instruction after the deadline: the fee is recorded, as for any such cancellation.
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(await item(t, res.body.action_id)).toMatchObject({ disposition: 'AUTO_CANCELLED' });
    const [review] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(review).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'RESOLVED',
      due_by: null,
      superseded_by: res.body.action_id,
    });
    expect(cancels() - before).toBe(1);
  });

  it('a requested cancellation of a booking whose late cancellation awaits a person carries it out; the review item is resolved by it', async () => {
    const { t, id, before, dropped } = await cancelledWhileWaiting(
      'review',
      '/crew/bookings/request',
      'LAYOVER_CANCELLED',
    );
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    const [review] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(review).toMatchObject({
      disposition: 'AUTO_CANCELLED',
      review_status: 'RESOLVED',
      due_by: null,
      action_taken: 'CANCEL_BOOKING',
      action_taken_by: expect.any(String),
    });
    expect(cancels() - before).toBe(1);
  });
});

describe("a person's cancellation", () => {
  it('a DELETE after the deadline records the fee; a DELETE on a held booking supersedes the hold (one cancellation)', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-15T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-15T12:30:00.000Z' });
    // The airline's own DELETE, after the deadline: it is the one cancellation, and a person's instruction pays the fee.
    clock = new Date('2027-03-15T22:30:00Z');
    const res = await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, { method: 'DELETE', token: t.accessToken });
    expect(res.status).toBe(202);
    const b = await settledAs(t, id, 'CANCELLED');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED', held_until: null });
    expect(cancels() - before).toBe(1);
  });

  it('a PATCH that swaps the property after the deadline cancels the original under its terms: the fee is recorded on it', async () => {
    const t = await airline();
    const id = await bookedLayover(t);
    const before = cancels();
    clock = new Date('2027-03-15T22:30:00Z');
    const res = await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, {
      method: 'PATCH',
      token: t.accessToken,
      body: { reason: 'crew moved hotel', hotel: { property_id: 'GDS-JFK-002' } },
    });
    expect(res.status).toBe(202);
    const original = await settledAs(t, id, 'CANCELLED');
    expect(original.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(original.hotel.cancellation_penalty_avoided).toBeUndefined();
    expect(cancels() - before).toBe(1);
  });
});

describe("a person's lock (manual_override) on a held booking", () => {
  it('a PATCH setting manual_override ends the hold: the booking stays, the item AUTO_BOOKED, and the timer cancels nothing', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-14T12:30:00.000Z' });
    clock = new Date('2027-03-14T12:10:00Z');
    const res = await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, {
      method: 'PATCH',
      token: t.accessToken,
      body: { manual_override: true, reason: 'crew keeps the room' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED', held_until: null });
    expect(item!.message).toContain('manual_override');

    clock = new Date('2027-03-14T12:30:05Z');
    await timerFires(id);
    expect(await booking(t, id)).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(cancels()).toBe(before);
  });

  it('the hold running out never cancels a booking someone locked meanwhile: the hold ends kept instead', async () => {
    const t = await airline({ cancel_hold_minutes: 30 });
    const id = await bookedLayover(t);
    const before = cancels();
    const dropped = await processed(t, withoutLayover(), '2027-03-14T12:00:00Z');
    expect(dropped.items[0]).toMatchObject({ disposition: null, held_until: '2027-03-14T12:30:00.000Z' });
    // Locked by a path that leaves the hold as it is (written directly): the release is the last line of defence.
    await stack.database.db
      .updateTable('bookings')
      .set({ manual_override: true })
      .where('booking_id', '=', id)
      .execute();
    clock = new Date('2027-03-14T12:30:05Z');
    await timerFires(id);
    expect(await booking(t, id)).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    const [item] = await allActionItems(stack, t.accessToken, dropped.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED', held_until: null });
    // Ended: the overdue-hold sweep finds nothing to send again.
    clock = new Date('2027-03-14T12:40:00Z');
    expect(await resendOverdueHolds({ db: stack.database.db, relay: stack.relay, now: () => clock })).toBe(0);
    expect(cancels()).toBe(before);
  });
});
