/**
 * A booking task superseded while its supplier call is in flight: a later roster (or an injected cancellation)
 * writes a new task onto the PENDING booking, and the call it overtook returns with a room or a ticket. Whatever
 * that call made is either handed to the booking (it waits for a person) or cancelled at the supplier: at the end
 * no live reservation is left at the supplier that no booking holds, and the booking's status is what happened.
 *
 * The call in flight is held at the supplier (the sandbox's `hold` fault: nothing done until it is released) while
 * the later roster or injection is written, then released: a Duffel Stays booking call (after search, rates and
 * quote) or a sandbox deadhead's order. However loaded the machine, the overtaking change is written while the call
 * is in flight, and the call returns after it.
 */
import {
  allActionItems,
  bookingAccount,
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
import {
  airlineWithHotels,
  duffelControl,
  invoiceLine,
  londonLayover,
  movedStays,
  NIGHT,
  reconciledInvoice,
  staysAirline as staysAirlineOf,
} from './moved-stays';

jest.setTimeout(120_000);

/** The Duffel Stays deadline: a call held longer than this would time out (the timeout test waits for it). */
const STAYS_DEADLINE_MS = 6000;
const DAY1 = '2027-03-10';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('superseded_tasks', {
    worker: true,
    duffelStaysTimeoutMs: STAYS_DEADLINE_MS,
    // A held deadhead order waits for the later roster's diff and its own order: not bounded by a fault's 2 s.
    sandboxTimeoutMs: 30_000,
    now: () => new Date('2027-03-01T00:00:00Z'),
  });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

let n = 0;
const SETTINGS = { schedules_access: true, cancellation_execution: true, booking_modification: true };

/** An airline booking its JFK layovers at a Duffel Stays accommodation under contract (DUFFEL, then SANDBOX). */
async function staysAirline() {
  const { t, email, token } = await staysAirlineOf(stack, ++n, {
    label: 'Superseded Air',
    prefix: 'U',
    domain: 'superseded.test',
  });
  // Free cancellation until 18:00 hotel time four days before the check-in, one night after it.
  const hotel = (await api(t, '/crew/config/hotels')).body.bases[0].hotels[0].hotel_config_id;
  const contract = (await api(t, `/crew/config/hotels/${hotel}/contracts`)).body.contracts[0].contract_id;
  const terms = await api(t, `/crew/config/hotels/${hotel}/contracts/${contract}`, {
    method: 'PATCH',
    body: {
      cancellation_deadline: { days_before: 4, local_time: '18:00' },
      late_cancellation_fee: { type: 'NIGHTS', nights: 1 },
      hotel_time_zone: 'America/New_York',
    },
  });
  expect(terms.status).toBe(200);
  return { t, email, token };
}

/** An airline whose deadheads are booked automatically at the sandbox (no hotel contract: layovers go to review). */
async function deadheadAirline() {
  n++;
  const t = await onboard(stack, {
    name: `Superseded Air ${n}`,
    carrier: `U${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { ...SETTINGS, deadhead_auto_booking: true },
  });
  const email = `crew${n}@superseded.test`;
  await bookingAccount(stack, t, email);
  const rules = await api(t, '/crew/config/flight-rules', {
    method: 'PUT',
    body: { auto_book_max_price: { amount: 20000, currency: 'USD' } },
  });
  expect(rules.status).toBe(200);
  return { t, email };
}

async function submit(t: Tenant, body: unknown): Promise<string> {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
}

const withLayover = (email: string) => onePairingRoster({ email, day1: DAY1 });
function withoutLayover(email: string) {
  const r = onePairingRoster({ email, day1: DAY1 });
  delete (r.pairings[0]!.duty_periods[0] as { layover?: unknown }).layover;
  return r;
}
function movedLayover(email: string) {
  const r = onePairingRoster({ email, day1: DAY1 });
  const l = r.pairings[0]!.duty_periods[0]!.layover!;
  l.checkout_time_local = l.checkout_time_local.replace('T09:00', 'T11:00');
  return r;
}

/** The airline's booking of `type` once the diff wrote it. */
const bookingOf = (t: Tenant, type: 'HOTEL' | 'FLIGHT') =>
  waitFor(
    () =>
      stack.database.db
        .selectFrom('bookings')
        .select(['booking_id', 'status'])
        .where('airline_id', '=', t.airlineId)
        .where('type', '=', type)
        .executeTakeFirst(),
    20_000,
    `the ${type} booking`,
    20,
  );

const booking = async (t: Tenant, id: string) => (await api(t, `/crew/bookings/${id}`)).body;
const historyOf = async (t: Tenant, id: string) =>
  ((await api(t, `/crew/bookings/${id}/status`)).body.history as { status: string; reason: string | null }[]).map(
    (h) => `${h.status}: ${h.reason}`,
  );
const allBookings = async (t: Tenant, type: 'HOTEL' | 'FLIGHT') =>
  (await api(t, `/crew/bookings?type=${type}&limit=200`)).body.bookings as any[];

const { duffelCalls, staysBookings, arm: holdNext, held, release, unheldStays } = duffelControl(() => stack);

/** The sandbox's flight orders still confirmed for the traveller that no live booking of the airline holds. */
async function unheldOrders(t: Tenant, email: string): Promise<string[]> {
  const held = new Set<string>();
  for (const b of await allBookings(t, 'FLIGHT')) {
    const f = b.flight;
    if (b.status === 'CANCELLED' || !f?.supplier_ref || f.supplier_status === 'CANCELLED') continue;
    held.add(f.supplier_ref);
  }
  const rows = (
    await http(
      `${stack.sandboxUrl}/_control/reservations?kind=flight&status=CONFIRMED&traveller_email=${encodeURIComponent(email)}`,
    )
  ).body.reservations as { supplier_ref: string }[];
  return rows.filter((r) => !held.has(r.supplier_ref)).map((r) => r.supplier_ref);
}

/** Waits until the Stays booking call made its room, then (up to `ms`) until every confirmed room is held by a booking. */
async function noUnheldStays(t: Tenant, token: string, ms = 20_000): Promise<void> {
  await waitFor(
    async () => ((await duffelCalls(token))['stays.bookings.create'] ?? 0) >= 1,
    30_000,
    'the Stays booking',
  );
  let last: string[] = [];
  await waitFor(
    async () => (last = await unheldStays(t, token)).length === 0,
    ms,
    () => `no confirmed Stays booking that no booking holds (left: ${last.join(', ')})`,
  );
}

/** The Stays call held while the overtaking change is written: the booking itself (search, rates, quote done). */
const BOOK = 'stays.bookings.create';

/**
 * Submits a roster with the layover and waits until its booking task is in the middle of its Stays calls, its
 * `heldAt` call held at Duffel until `release`: the booking's id.
 */
async function layoverBookingInFlight(t: Tenant, email: string, token: string, heldAt = BOOK): Promise<string> {
  await holdNext(token, heldAt);
  await submit(t, withLayover(email));
  const { booking_id: id } = await bookingOf(t, 'HOTEL');
  await held(token, heldAt);
  return id;
}

/**
 * A Stays airline (a Duffel `fault` armed first, when given) whose roster N+1 drops the layover while its booking call
 * is in flight (held at `heldAt`); that roster is processed (COMPLETED), then the call goes on.
 */
async function droppedWhileBooking(fault?: { operation: string; outcome: string }, heldAt = BOOK) {
  const { t, email, token } = await staysAirline();
  if (fault) {
    const armed = await http(`${stack.sandboxUrl}/_control/duffel/faults`, {
      method: 'POST',
      body: { token, ...fault },
    });
    expect(armed.status).toBe(201);
  }
  const id = await layoverBookingInFlight(t, email, token, heldAt);
  const next = await submit(t, withoutLayover(email));
  expect((await waitForSchedule(stack, t.accessToken, next)).status).toBe('COMPLETED');
  await release(token, heldAt);
  return { t, token, id, next };
}

it('roster N+1 drops a Duffel Stays layover whose booking call is in flight: the room is cancelled, the booking CANCELLED', async () => {
  const { t, token, id, next } = await droppedWhileBooking();

  await noUnheldStays(t, token);
  // The room the overtaken call made is recorded on the booking (just after the supplier cancelled it), cancelled.
  const b = await waitFor(
    async () => {
      const x = await booking(t, id);
      return x.hotel?.supplier_status === 'CANCELLED' && x;
    },
    10_000,
    'the cancelled room on the booking',
  );
  expect(b.status).toBe('CANCELLED');
  const stays = await staysBookings(token);
  expect(stays.map((s) => s.booking.status)).toEqual(['cancelled']);
  // Cancelled on 1 March, before the deadline of 6 March: the night's fee avoided, as the roster's cancellation says.
  expect(b.hotel).toMatchObject({
    supplier: 'DUFFEL',
    supplier_booking_id: stays[0]!.booking.id,
    supplier_status: 'CANCELLED',
    cancellation_penalty_avoided: { currency: 'USD' },
  });
  const said = (await historyOf(t, id)).at(-1)!;
  expect(said).toMatch(
    new RegExp(
      `^CANCELLED: the room ${b.hotel.supplier_ref} \\(DUFFEL\\), made by an earlier task after a later change had replaced it, was cancelled at the supplier; in time for the hotel's cancellation deadline .*: no fee$`,
    ),
  );
  // The roster's cancellation item no longer says nothing was reserved: it says what was cancelled, and the fee.
  const item = (await allActionItems(stack, t.accessToken, next)).find((i) => i.booking_id === id)!;
  expect(item).toMatchObject({ disposition: 'AUTO_CANCELLED', message: said.replace(/^CANCELLED: /, '') });
});

it('an injected IROP_HOTEL_CANCEL right after an IROP_HOTEL_EXTEND, the Stays call in flight: the room is cancelled', async () => {
  const { t, email, token } = await staysAirline();
  const stay = { city: 'JFK', check_in_date: DAY1, num_nights: 1 };
  const anchors = { traveller_email: email, employee_id: 'E1', pairing_number: 'IROP1', duty_date: DAY1 };
  await holdNext(token, BOOK);
  const made = await api(t, '/crew/action-items', {
    method: 'POST',
    body: {
      type: 'HOTEL',
      classification: 'IROP_HOTEL_EXTEND',
      source: 'IROP',
      irop_ref: 'IROP-9',
      anchors,
      hotel: stay,
    },
  });
  expect(made.status).toBe(202);
  const id = made.body.booking_id as string;
  await held(token, BOOK);
  const cancel = await api(t, '/crew/action-items', {
    method: 'POST',
    body: {
      type: 'HOTEL',
      classification: 'IROP_HOTEL_CANCEL',
      source: 'IROP',
      irop_ref: 'IROP-9',
      anchors,
      hotel: stay,
    },
  });
  expect(cancel.status).toBe(202);
  expect(cancel.body.booking_id).toBe(id);
  // The cancellation runs while the call is in flight, finding nothing reserved; then the call returns its room.
  await waitFor(async () => (await booking(t, id)).status === 'CANCELLED', 20_000, 'the injected cancellation');
  await release(token, BOOK);

  await noUnheldStays(t, token);
  expect((await booking(t, id)).status).toBe('CANCELLED');
  expect((await staysBookings(token)).map((s) => s.booking.status)).toEqual(['cancelled']);
});

it('roster N+1 moves a Duffel Stays layover whose booking call is in flight: the review holds the room made', async () => {
  const { t, email, token } = await staysAirline();
  const id = await layoverBookingInFlight(t, email, token);
  const next = await submit(t, movedLayover(email));
  expect((await waitForSchedule(stack, t.accessToken, next)).status).not.toBe('PROCESSING');
  await release(token, BOOK);

  await noUnheldStays(t, token);
  // A person decides the change (the booking was not CONFIRMED when the roster moved it): the room is theirs to keep
  // or replace, on the booking, not lost.
  const b = await booking(t, id);
  expect(b.status).toBe('NEEDS_REVIEW');
  const stays = await staysBookings(token);
  expect(stays.map((s) => s.booking.status)).toEqual(['confirmed']);
  expect(b.hotel).toMatchObject({
    supplier: 'DUFFEL',
    supplier_booking_id: stays[0]!.booking.id,
    check_in_date: '2027-03-10',
  });
  expect((await historyOf(t, id)).at(-1)).toMatch(/^NEEDS_REVIEW: the room .* is held on the booking: the person/);
});

/** The sandbox's flight orders of the traveller. */
const flightOrdersOf = (email: string) =>
  http(`${stack.sandboxUrl}/_control/reservations?kind=flight&traveller_email=${encodeURIComponent(email)}`);

/** The booking once it records its ticket CANCELLED (the supplier's cancellation written on it). */
const cancelledTicketOnBooking = (t: Tenant, id: string) =>
  waitFor(
    async () => {
      const x = await booking(t, id);
      return x.flight?.supplier_status === 'CANCELLED' && x;
    },
    10_000,
    'the cancelled ticket on the booking',
  );

it('roster N+1 drops a deadhead whose order call is in flight: the ticket is cancelled, the booking CANCELLED', async () => {
  const { t, email } = await deadheadAirline();
  const orderCalls = () => stack.sandbox.sandbox.callCounts().bookFlight ?? 0;
  const before = orderCalls();
  // The next two orders are held: this deadhead's, then (the later roster written) the new deadhead's.
  const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
    method: 'POST',
    body: { operation: 'flight.book', outcome: 'hold', count: 2 },
  });
  expect(armed.status).toBe(201);
  await submit(t, onePairingRoster({ email, day1: DAY1 }));
  const { booking_id: id } = await bookingOf(t, 'FLIGHT');
  await waitFor(() => orderCalls() > before, 20_000, 'the held order', 10);
  const next = await submit(t, onePairingRoster({ email, day1: DAY1, legSequence: 2 }));
  await waitFor(() => orderCalls() > before + 1, 20_000, "the new deadhead's held order", 10);
  // Released in the order they came: the overtaken order is made first.
  const released = await http(`${stack.sandboxUrl}/_control/holds/release`, {
    method: 'POST',
    body: { operation: 'flight.book' },
  });
  expect(released.body).toEqual({ released: 2 });
  await waitForSchedule(stack, t.accessToken, next);

  const orders = () => flightOrdersOf(email);
  let last: string[] = [];
  await waitFor(async () => (await orders()).body.reservations.length >= 2, 30_000, 'both deadheads ordered');
  await waitFor(
    async () => (last = await unheldOrders(t, email)).length === 0,
    20_000,
    () => `no confirmed order that no booking holds (left: ${last.join(', ')})`,
  );
  const first = (await orders()).body.reservations[0];
  expect(first).toMatchObject({ status: 'CANCELLED' });
  // Recorded on the booking just after the supplier cancelled it.
  const b = await cancelledTicketOnBooking(t, id);
  expect(b.status).toBe('CANCELLED');
  expect(b.flight).toMatchObject({ supplier: 'SANDBOX', supplier_ref: first.supplier_ref });
});

it('the overtaken Stays booking call times out (its room made, the answer lost): the room found by its reference is cancelled', async () => {
  // Held at the quote: the booking call after it is the one that times out.
  const { t, token, id } = await droppedWhileBooking(
    { operation: 'stays.bookings.create', outcome: 'timeout' },
    'stays.quotes.create',
  );

  // The Stays call gives up after its deadline: the task's outcome is unknown, and by then not the booking's.
  await noUnheldStays(t, token, STAYS_DEADLINE_MS + 20_000);
  expect((await booking(t, id)).status).toBe('CANCELLED');
  expect((await staysBookings(token)).map((s) => s.booking.status)).toEqual(['cancelled']);
});

it('roster N+1 drops a Duffel Stays layover in flight and Duffel refuses to cancel the room made: the booking goes to review holding it', async () => {
  const { t, token, id } = await droppedWhileBooking({ operation: 'stays.bookings.cancel', outcome: 'cancel_refused' });

  // The overtaken call's room is still live at Duffel: the booking holds it, waiting for a person, not CANCELLED.
  const b = await waitFor(
    async () => {
      const x = await booking(t, id);
      return x.status === 'NEEDS_REVIEW' && x;
    },
    30_000,
    'the booking in review',
  );
  const stays = await staysBookings(token);
  expect(stays.map((s) => s.booking.status)).toEqual(['confirmed']);
  expect(await unheldStays(t, token)).toEqual([]);
  expect(b.hotel).toMatchObject({ supplier: 'DUFFEL', supplier_booking_id: stays[0]!.booking.id });
  expect(b.hotel.supplier_status).not.toBe('CANCELLED');
  expect(b.review_reason).toContain(b.hotel.supplier_ref);
  expect(b.review_reason).toContain('DUFFEL');
  expect(b.review_reason).toContain('cancel it there');
  // In the review queue, open, with CANCEL_BOOKING; taken, it cancels the room at Duffel.
  const open = (await api(t, '/crew/action-items?review_status=OPEN')).body.action_items as any[];
  const item = open.find((i) => i.booking_id === id);
  expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', message: b.review_reason });
  expect(item.available_actions).toContain('CANCEL_BOOKING');
  const cancel = await api(t, `/crew/action-items/${item.action_id}/actions`, {
    method: 'POST',
    body: { action: 'CANCEL_BOOKING', acting_user: 'desk@superseded.test' },
  });
  expect(cancel.status).toBe(202);
  await waitFor(
    async () => (await booking(t, id)).status === 'CANCELLED',
    20_000,
    'the booking cancelled by the person',
  );
  expect((await staysBookings(token)).map((s) => s.booking.status)).toEqual(['cancelled']);
});

/**
 * A Stays airline whose layover the roster moves while its booking call is in flight: the booking waits for a person
 * (both the overtaken call and a person's choice could order under bk-<booking>: Duffel would sell a second room).
 */
async function movedWhileBooking() {
  const { t, email, token } = await staysAirline();
  const id = await layoverBookingInFlight(t, email, token);
  const next = await submit(t, movedLayover(email));
  await waitForSchedule(stack, t.accessToken, next);
  return { t, email, token, id, next };
}

/**
 * `act` (a person's choice, or the airline's commit) starts a booking task while the overtaken call is held; that
 * task is held at its Stays search (after looking under the booking's recorded reference, where nothing is yet),
 * the overtaken call then returns its room and has it cancelled, and the task goes on to book.
 */
async function actWhileBooking(token: string, act: () => Promise<void>): Promise<void> {
  await holdNext(token, 'stays.search');
  await act();
  await waitFor(
    async () => ((await duffelCalls(token))['stays.search'] ?? 0) >= 2,
    20_000,
    "the task's held Stays search",
  );
  await release(token, BOOK);
  await waitFor(
    async () => (await staysBookings(token)).every((s) => s.booking.status === 'cancelled'),
    20_000,
    "the overtaken call's room cancelled",
  );
  await release(token, 'stays.search');
}

/** The booking settles CONFIRMED on one room, its own; the overtaken call's room is cancelled. */
async function confirmedOnOneRoom(t: Tenant, token: string, id: string): Promise<void> {
  const b = await waitFor(
    async () => {
      const x = await booking(t, id);
      return x.status !== 'PENDING' && x.status !== 'NEEDS_REVIEW' && x;
    },
    30_000,
    'the booking to settle',
  );
  expect(b.status).toBe('CONFIRMED');
  await noUnheldStays(t, token);
  const stays = await staysBookings(token);
  expect(stays.map((s) => s.booking.status).sort()).toEqual(['cancelled', 'confirmed']);
  expect(stays.find((s) => s.booking.status === 'confirmed')!.booking.id).toBe(b.hotel.supplier_booking_id);
}

/** A person's BOOK_HOTEL on the item from the review queue: accepted. */
async function bookHotelFromQueue(t: Tenant, actionId: string): Promise<void> {
  const chosen = await api(t, `/crew/action-items/${actionId}/actions`, {
    method: 'POST',
    body: { action: 'BOOK_HOTEL', acting_user: 'desk@superseded.test' },
  });
  expect(chosen.status).toBe(202);
}

/** The airline's commit of the stay, fulfilling the booking `id` that waits for a person (as BOOK_HOTEL does). */
async function commitHotel(t: Tenant, email: string, id: string): Promise<void> {
  const commit = await api(t, '/crew/bookings/request', {
    method: 'POST',
    body: {
      type: 'HOTEL',
      classification: 'NEW_LAYOVER',
      anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100' },
      hotel: { city: 'JFK', check_in_date: DAY1, num_nights: 1 },
    },
  });
  expect(commit.status).toBe(202);
  expect(commit.body.booking_id).toBe(id);
}

it('a person books the hotel from the review queue while the overtaken Stays call is in flight: one room, the booking’s', async () => {
  const { t, token, id, next } = await movedWhileBooking();
  const item = (await allActionItems(stack, t.accessToken, next)).find((i) => i.booking_id === id)!;
  expect(item.available_actions).toContain('BOOK_HOTEL');
  await actWhileBooking(token, async () => {
    await bookHotelFromQueue(t, item.action_id);
  });
  await confirmedOnOneRoom(t, token, id);
});

it('the airline commits the hotel for the booking in review while the overtaken Stays call is in flight: one room', async () => {
  const { t, email, token, id } = await movedWhileBooking();
  expect((await booking(t, id)).status).toBe('NEEDS_REVIEW');
  // A commit for the stay fulfils the booking waiting for a person, as the queue's BOOK_HOTEL does.
  await actWhileBooking(token, async () => {
    await commitHotel(t, email, id);
  });
  await confirmedOnOneRoom(t, token, id);
});

/** The worker's log lines about the booking `id` that say `what`. */
const logged = (id: string, what: string) => stack.logLines.some((l) => l.includes(id) && l.includes(what));

/**
 * `act` (a person's choice, or the airline's commit) records the overtaken order's reference and starts a task that
 * looks it up before ordering: that lookup held at Duffel, the overtaken call returns its room at once, and (once
 * the overtaken task judged it: held cancelling it, or waiting for the booking's task) the lookup goes on and finds
 * that room, the very stay asked for. Any cancellation of it is held until the booking settled, so a room cancelled
 * under the booking that kept it shows at Duffel.
 */
async function actThenReturn(t: Tenant, token: string, id: string, act: () => Promise<void>): Promise<void> {
  const CANCEL = 'stays.bookings.cancel';
  const LOOKUP = 'stays.bookings.list';
  const lookups = (await duffelCalls(token))[LOOKUP] ?? 0;
  await holdNext(token, LOOKUP);
  await holdNext(token, CANCEL);
  await act();
  await release(token, BOOK);
  await waitFor(
    async () => ((await duffelCalls(token))[LOOKUP] ?? 0) > lookups,
    20_000,
    "the booking task's held lookup",
  );
  await waitFor(
    async () => ((await duffelCalls(token))[CANCEL] ?? 0) >= 1 || logged(id, 'a superseded task’s reservation waits'),
    20_000,
    "the overtaken task's judgment of its room",
  );
  await release(token, LOOKUP);
  await waitFor(
    async () => !['PENDING', 'NEEDS_REVIEW'].includes((await booking(t, id)).status),
    30_000,
    'the booking to settle',
  );
  // Let a held cancellation go (none with the booking's task keeping the room), then wait for the overtaken task's end.
  await http(`${stack.sandboxUrl}/_control/duffel/holds/release`, {
    method: 'POST',
    body: { token, operation: CANCEL },
  });
  await waitFor(
    () =>
      logged(id, 'a superseded task’s reservation cancelled at the supplier') ||
      logged(id, 'a superseded task’s reservation is the booking’s'),
    40_000,
    "the overtaken task's end",
  );
}

/** The booking CONFIRMED on the overtaken call's room, live at Duffel: the one room, never cancelled. */
async function confirmedOnTheOvertakenRoom(t: Tenant, token: string, id: string): Promise<void> {
  const b = await booking(t, id);
  expect(b.status).toBe('CONFIRMED');
  const stays = await staysBookings(token);
  expect(stays.map((s) => s.booking.status)).toEqual(['confirmed']);
  expect(b.hotel).toMatchObject({
    supplier: 'DUFFEL',
    supplier_booking_id: stays[0]!.booking.id,
    supplier_status: 'CONFIRMED',
  });
  expect(await unheldStays(t, token)).toEqual([]);
  expect((await duffelCalls(token))['stays.bookings.cancel'] ?? 0).toBe(0);
  expect((await duffelCalls(token))[BOOK]).toBe(1);
}

it('a person books the hotel from the review queue and the overtaken Stays call returns at once: the booking keeps that room, live', async () => {
  const { t, token, id, next } = await movedWhileBooking();
  const item = (await allActionItems(stack, t.accessToken, next)).find((i) => i.booking_id === id)!;
  await actThenReturn(t, token, id, async () => {
    await bookHotelFromQueue(t, item.action_id);
  });
  await confirmedOnTheOvertakenRoom(t, token, id);
});

it('the airline commits the hotel for the booking in review and the overtaken Stays call returns at once: that room, live', async () => {
  const { t, email, token, id } = await movedWhileBooking();
  await actThenReturn(t, token, id, async () => {
    await commitHotel(t, email, id);
  });
  await confirmedOnTheOvertakenRoom(t, token, id);
});

/** The roster with its deadhead leaving at `hour` (London), arriving three hours later (New York). */
function deadheadAt(email: string, hour: number) {
  const r = onePairingRoster({ email, day1: DAY1 });
  const leg = r.pairings[0]!.duty_periods[0]!.legs[0]!;
  const hh = String(hour).padStart(2, '0');
  const arr = String(hour - 2).padStart(2, '0');
  leg.dep_time_local = leg.expected_dep_time_local = `${DAY1}T${hh}:00:00+00:00`;
  leg.arr_time_local = leg.expected_arr_time_local = `${DAY1}T${arr}:00:00-05:00`;
  return r;
}

it('a later roster overtakes a deadhead rebook after it cancelled the old ticket, before it recorded it: the booking says CANCELLED', async () => {
  const { t, email } = await deadheadAirline();
  await submit(t, deadheadAt(email, 9));
  const { booking_id: id } = await bookingOf(t, 'FLIGHT');
  const ticket = await waitFor(
    async () => {
      const x = await booking(t, id);
      return x.status === 'CONFIRMED' && x.flight;
    },
    30_000,
    'the first ticket',
  );
  expect(ticket).toMatchObject({ supplier: 'SANDBOX', supplier_status: 'CONFIRMED' });
  const cancels = () => stack.sandbox.sandbox.callCounts().cancelFlightOrder ?? 0;
  const before = cancels();
  // Roster N+1 moves the deadhead: its rebook cancels the old ticket first, that call held at the sandbox.
  const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
    method: 'POST',
    body: { operation: 'flight.cancel', outcome: 'hold' },
  });
  expect(armed.status).toBe(201);
  await submit(t, deadheadAt(email, 10));
  await waitFor(() => cancels() > before, 20_000, 'the held cancellation', 10);
  // Roster N+2 moves it again while the rebook runs: a person decides it (no supplier call), the rebook superseded.
  const next = await submit(t, deadheadAt(email, 11));
  expect((await waitForSchedule(stack, t.accessToken, next)).status).not.toBe('PROCESSING');
  expect((await booking(t, id)).status).toBe('NEEDS_REVIEW');
  const released = await http(`${stack.sandboxUrl}/_control/holds/release`, {
    method: 'POST',
    body: { operation: 'flight.cancel' },
  });
  expect(released.body).toEqual({ released: 1 });

  // The supplier cancelled the old ticket: the booking in review no longer names it live.
  const orders = () => flightOrdersOf(email);
  await waitFor(
    async () =>
      (await orders()).body.reservations.some(
        (r: { supplier_ref: string; status: string }) =>
          r.supplier_ref === ticket.supplier_ref && r.status === 'CANCELLED',
      ),
    20_000,
    'the old ticket cancelled at the sandbox',
  );
  const b = await cancelledTicketOnBooking(t, id);
  expect(b.status).toBe('NEEDS_REVIEW');
  expect(b.flight).toMatchObject({ supplier: 'SANDBOX', supplier_ref: ticket.supplier_ref });
  expect((await historyOf(t, id)).at(-1)).toBe(
    `NEEDS_REVIEW: the ticket ${ticket.supplier_ref} (SANDBOX) was cancelled at the supplier by an earlier task that a later change replaced before it could record it: the booking no longer holds it`,
  );
  expect(await unheldOrders(t, email)).toEqual([]);
});

describe('a stay moved to another city whose task is overtaken after it cancelled the old room, before it recorded it', () => {
  // Two days after the clock: the JFK contract's deadline (18:00 New York time, four days before) has passed.
  const LATE_DAY = '2027-03-03';
  const atJfk = () => onePairingRoster({ day1: LATE_DAY });
  const toLondon = () => londonLayover(LATE_DAY);
  function dropped() {
    const r = onePairingRoster({ day1: LATE_DAY });
    delete (r.pairings[0]!.duty_periods[0] as { layover?: unknown }).layover;
    return r;
  }
  const cancels = () => stack.sandbox.sandbox.callCounts().cancelHotelReservation ?? 0;

  it.each(['GDS', 'DIRECT'] as const)(
    'to a %s hotel: the old hotel’s stay is recorded once for its invoice, and its late fee on the booking',
    async (channel) => {
      const t = await airlineWithHotels(stack, 'Superseded', 'V', { JFK: 'GDS', LHR: channel });
      await submit(t, atJfk());
      const { booking_id: id } = await bookingOf(t, 'HOTEL');
      const room = await waitFor(
        async () => {
          const x = await booking(t, id);
          return x.status === 'CONFIRMED' && x.hotel;
        },
        30_000,
        'the JFK room',
      );
      expect(room).toMatchObject({ property_id: 'GDS-JFK-001', supplier: 'SANDBOX', supplier_status: 'CONFIRMED' });
      const before = cancels();
      // Roster N+1 moves the stay to London: its task cancels the JFK room first, that call held at the sandbox.
      const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
        method: 'POST',
        body: { operation: 'hotel.cancel', outcome: 'hold' },
      });
      expect(armed.status).toBe(201);
      await submit(t, toLondon());
      await waitFor(() => cancels() > before, 20_000, 'the held cancellation', 10);
      // Roster N+2 drops the stay while the move runs: with cancellation execution off, a person decides it.
      const off = await request(stack, 'PATCH /ops/v1/airlines/:airline_id/settings', {
        token: stack.opsToken,
        params: { airline_id: t.airlineId },
        body: { cancellation_execution: false },
      });
      expect(off.status).toBe(200);
      const next = await submit(t, dropped());
      expect((await waitForSchedule(stack, t.accessToken, next)).status).not.toBe('PROCESSING');
      expect((await booking(t, id)).status).toBe('NEEDS_REVIEW');
      const released = await http(`${stack.sandboxUrl}/_control/holds/release`, {
        method: 'POST',
        body: { operation: 'hotel.cancel' },
      });
      expect(released.body).toEqual({ released: 1 });

      const b = await waitFor(
        async () => {
          const x = await booking(t, id);
          return x.hotel?.supplier_status === 'CANCELLED' && x;
        },
        20_000,
        'the cancelled room on the booking',
      );
      expect(b.status).toBe('NEEDS_REVIEW');
      // The booking still named the JFK room: it records the late fee its cancellation cost.
      expect(b.hotel).toMatchObject({ supplier_ref: room.supplier_ref, cancellation_penalty: NIGHT });
      expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
      expect((await historyOf(t, id)).at(-1)).toContain('late cancellation fee 180.00 USD recorded on the booking');
      // The JFK hotel's invoice finds the stay moved away from it, once.
      expect(await movedStays(stack, id)).toMatchObject([
        {
          property_id: 'GDS-JFK-001',
          confirmation_number: room.confirmation_number,
          check_in_date: LATE_DAY,
          cancellation_penalty: NIGHT,
        },
      ]);
      expect(cancels() - before).toBe(1);
      // Its late fee on the JFK hotel's invoice matches that stay: owed, not disputed as charged for no booking.
      const lines = await reconciledInvoice(stack, t, `JFK-${channel}`, 'GDS-JFK-001', [
        invoiceLine(1, {
          employee_id: 'E1',
          check_in_date: LATE_DAY,
          check_out_date: '2027-03-04',
          confirmation_number: room.confirmation_number,
          fees: [{ type: 'LATE_CANCEL', amount: NIGHT }],
        }),
      ]);
      expect(lines).toMatchObject([{ status: 'MATCHED', booking_id: id, disputed: { amount: 0 } }]);
    },
  );
});
