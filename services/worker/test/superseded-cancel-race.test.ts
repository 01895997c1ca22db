/**
 * The room a superseded task made is cancelled at the supplier outside the booking's lock. While that cancellation
 * is in flight the booking may change again: no task of it may keep the room being cancelled (the booking would end
 * on a room cancelled at the supplier) nor book a second one beside a live one.
 *
 * Calls are held at the supplier (the sandbox's and Duffel's `hold` fault) and released through the control API, so
 * every step lands while the call before it is in flight, however loaded the machine. The deadlines are long enough
 * (Duffel Stays: the worker's 30 s; the sandbox: 60 s) that a held call is still waiting when it is released.
 */
import { roomingFormToken, roomingLinkKey, signRoomingLink } from '@crew/rooming';
import {
  allActionItems,
  http,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';
import {
  airlineWithHotels,
  DAY1 as MOVED_DAY1,
  duffelControl,
  londonLayover,
  startSmtpSink,
  staysAirline as staysAirlineOf,
  TRAVELLER,
} from './moved-stays';

jest.setTimeout(120_000);

const DAY1 = '2027-03-10';
const BOOK = 'stays.bookings.create';
const SEARCH = 'stays.search';
const CANCEL = 'stays.bookings.cancel';

let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  // A DIRECT hotel's rooming list is answered by its stored id, not the mail.
  smtp = await startSmtpSink();
  stack = await startStack('superseded_cancel_race', {
    worker: true,
    sandboxTimeoutMs: 60_000,
    now: () => new Date('2027-03-01T00:00:00Z'),
    env: { ...smtp.env, ROOMING_LEAD_HOURS: '0', ROOMING_POLL_MS: '200' },
  });
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

let n = 0;

/** An airline booking its JFK layovers at a Duffel Stays accommodation under contract (DUFFEL, then SANDBOX). */
const staysAirline = () =>
  staysAirlineOf(stack, ++n, { label: 'Cancel Race Air', prefix: 'W', domain: 'cancel-race.test' });

async function submit(t: Tenant, body: unknown): Promise<string> {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
}

function movedLayover(email: string) {
  const r = onePairingRoster({ email, day1: DAY1 });
  const l = r.pairings[0]!.duty_periods[0]!.layover!;
  l.checkout_time_local = l.checkout_time_local.replace('T09:00', 'T11:00');
  return r;
}

const booking = async (t: Tenant, id: string) => (await api(t, `/crew/bookings/${id}`)).body;

const { duffelCalls, staysBookings, arm, release, unheldStays } = duffelControl(() => stack);
const callsOf = async (token: string, operation: string) => (await duffelCalls(token))[operation] ?? 0;

/** A person's BOOK_HOTEL on the item from the review queue: accepted. */
async function bookHotelFromQueue(t: Tenant, actionId: string): Promise<void> {
  const chosen = await api(t, `/crew/action-items/${actionId}/actions`, {
    method: 'POST',
    body: { action: 'BOOK_HOTEL', acting_user: 'desk@cancel-race.test' },
  });
  expect(chosen.status).toBe(202);
}

/** The worker's log lines about the booking `id` that say `what`. */
const logged = (id: string, what: string) => stack.logLines.some((l) => l.includes(id) && l.includes(what));

it('a person books the hotel again while the overtaken Stays room is being cancelled: the booking ends on a live room of its own', async () => {
  const { t, email, token } = await staysAirline();
  // The roster's booking call is held at Duffel; roster N+1 moves the layover meanwhile: the booking waits for a person.
  await arm(token, BOOK, 'hold');
  await submit(t, onePairingRoster({ email, day1: DAY1 }));
  await waitFor(async () => (await callsOf(token, BOOK)) >= 1, 20_000, 'the held Stays booking');
  const next = await submit(t, movedLayover(email));
  await waitForSchedule(stack, t.accessToken, next);
  const item = (await allActionItems(stack, t.accessToken, next)).find((i) => i.type === 'HOTEL')!;
  const id = item.booking_id!;
  expect((await booking(t, id)).status).toBe('NEEDS_REVIEW');

  // A person books the hotel: the task looks under the overtaken call's reference (nothing there yet), records its
  // own, and is held at its Stays search.
  await arm(token, SEARCH, 'hold');
  await bookHotelFromQueue(t, item.action_id);
  await waitFor(async () => (await callsOf(token, SEARCH)) >= 2, 20_000, "the person's held Stays search");
  // The overtaken call returns its room: no task of the booking looks that reference up now, so it is cancelled at
  // Duffel, and that cancellation is held there.
  await arm(token, CANCEL, 'hold');
  await release(token, BOOK);
  await waitFor(async () => (await callsOf(token, CANCEL)) >= 1, 20_000, "the overtaken room's held cancellation");
  const [overtaken] = await staysBookings(token);
  expect(overtaken!.booking.status).toBe('confirmed');

  // The person's task fails (Duffel down at its rates): the booking is FAILED, in the review queue again.
  await arm(token, 'stays.fetch_all_rates', 'error');
  await release(token, SEARCH);
  await waitFor(async () => (await booking(t, id)).status === 'FAILED', 20_000, "the person's task FAILED");
  const open = (await api(t, '/crew/action-items?review_status=OPEN')).body.action_items as any[];
  const again = open.find((i) => i.booking_id === id);
  expect(again?.available_actions).toContain('BOOK_HOTEL');

  // The person books again while the overtaken room's cancellation is still held at Duffel.
  await bookHotelFromQueue(t, again.action_id);
  const b = await waitFor(
    async () => {
      const x = await booking(t, id);
      return !['PENDING', 'FAILED', 'NEEDS_REVIEW'].includes(x.status) && x;
    },
    30_000,
    'the second choice to settle',
  );
  expect(await callsOf(token, CANCEL)).toBe(1);
  await release(token, CANCEL);
  await waitFor(
    () => logged(id, 'a superseded task’s reservation cancelled at the supplier'),
    20_000,
    "the overtaken task's end",
  );

  // One live room, the booking's own, never the one cancelled.
  expect(b.status).toBe('CONFIRMED');
  const stays = await staysBookings(token);
  expect(stays.find((s) => s.booking.id === overtaken!.booking.id)!.booking.status).toBe('cancelled');
  expect(b.hotel.supplier_booking_id).not.toBe(overtaken!.booking.id);
  expect(stays.find((s) => s.booking.id === b.hotel.supplier_booking_id)!.booking.status).toBe('confirmed');
  expect((await booking(t, id)).hotel).toMatchObject({ supplier_status: 'CONFIRMED' });
  expect(await unheldStays(t, token)).toEqual([]);
});

describe('a GDS room being cancelled when the roster moves the stay back to it', () => {
  /** The sandbox's `operation` calls so far (all airlines). */
  const sandboxCalls = (operation: string) => stack.sandbox.sandbox.callCounts()[operation] ?? 0;
  async function armSandbox(operation: string): Promise<void> {
    const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
      method: 'POST',
      body: { operation, outcome: 'hold' },
    });
    expect(armed.status).toBe(201);
  }
  async function releaseSandbox(operation: string): Promise<void> {
    const res = await http(`${stack.sandboxUrl}/_control/holds/release`, { method: 'POST', body: { operation } });
    expect(res.body).toEqual({ released: 1 });
  }
  const hotelReservations = async () =>
    (
      await http(
        `${stack.sandboxUrl}/_control/reservations?kind=hotel&traveller_email=${encodeURIComponent(TRAVELLER)}`,
      )
    ).body.reservations as { supplier_ref: string; status: string; property_id: string; reference: string }[];

  const beingCancelled = async (id: string) =>
    (
      await stack.database.db
        .selectFrom('bookings')
        .select('being_cancelled')
        .where('booking_id', '=', id)
        .executeTakeFirstOrThrow()
    ).being_cancelled;

  async function processed(t: Tenant, body: unknown) {
    const id = await submit(t, body);
    await waitForSchedule(stack, t.accessToken, id);
    return allActionItems(stack, t.accessToken, id, '&type=HOTEL');
  }
  async function bookingWhere(t: Tenant, id: string, pred: (b: any) => boolean, what: string) {
    let last: unknown;
    return waitFor(
      async () => {
        const b = (last = await booking(t, id));
        return pred(b) && b;
      },
      20_000,
      () => `booking ${id} ${what} (still ${JSON.stringify(last)})`,
    );
  }
  /** The layover moved to London: Crew Inn LHR, a DIRECT hotel. */
  const movedToLondon = () => londonLayover(MOVED_DAY1);
  /** The hotel confirms the booking's NEW row at `property`, as the confirmation page's form posts it. */
  async function confirmedByHotel(bookingId: string, property: string): Promise<void> {
    const row = await waitFor(
      () =>
        stack.database.db
          .selectFrom('rooming_rows as r')
          .innerJoin('rooming_lists as l', 'l.list_id', 'r.list_id')
          .innerJoin('hotel_configs as h', 'h.hotel_config_id', 'l.hotel_config_id')
          .select(['l.list_id'])
          .where('r.booking_id', '=', bookingId)
          .where('h.property_id', '=', property)
          .where('r.marking', '=', 'NEW')
          .where('l.status', '=', 'SENT')
          .executeTakeFirst(),
      20_000,
      `the NEW row at ${property} sent`,
    );
    const l = await stack.database.db
      .selectFrom('rooming_lists')
      .selectAll()
      .where('list_id', '=', row.list_id)
      .executeTakeFirstOrThrow();
    const key = roomingLinkKey(stack.opsToken);
    const token = signRoomingLink(key, {
      list_id: l.list_id,
      hotel_config_id: l.hotel_config_id,
      version: l.version,
      exp: Math.floor(l.expires_at!.getTime() / 1000),
    });
    const form = new URLSearchParams({ form_token: roomingFormToken(key, token), list_number: 'LHR-1' });
    const res = await fetch(`${stack.apiUrl}/hotel/rooming-lists/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(res.status).toBe(200);
  }

  it('the overtaken call’s room is being cancelled when the roster moves the stay back to it: the booking does not keep that room', async () => {
    const t = await airlineWithHotels(stack, 'Cancel Race', 'Y', { JFK: 'GDS', LHR: 'DIRECT' });
    // The roster's booking call at the GDS sandbox (New York) is held.
    const books = sandboxCalls('bookHotel');
    await armSandbox('hotel.book');
    await submit(t, onePairingRoster({ day1: MOVED_DAY1 }));
    await waitFor(() => sandboxCalls('bookHotel') > books, 20_000, 'the held GDS booking', 10);
    const { booking_id: id } = await stack.database.db
      .selectFrom('bookings')
      .select('booking_id')
      .where('airline_id', '=', t.airlineId)
      .where('type', '=', 'HOTEL')
      .executeTakeFirstOrThrow();
    // Roster N+1 moves the layover to London meanwhile: the booking, with no room yet, waits for a person.
    const [moved] = await processed(t, movedToLondon());
    expect(moved!.booking_id).toBe(id);
    await bookingWhere(t, id, (b) => b.status === 'NEEDS_REVIEW', 'in review');
    // A person books London's hotel from the queue (the overtaken order's reference recorded with the choice); the
    // DIRECT hotel confirms it by its rooming list.
    await bookHotelFromQueue(t, moved!.action_id);
    await confirmedByHotel(id, 'CREWINN-LHR');
    await bookingWhere(t, id, (b) => b.status === 'CONFIRMED', 'CONFIRMED at LHR');

    // The overtaken call returns its New York room: the booking holds London's stay, so the room is cancelled at the
    // sandbox, that call held.
    const cancels = sandboxCalls('cancelHotelReservation');
    await armSandbox('hotel.cancel');
    await releaseSandbox('hotel.book');
    await waitFor(() => sandboxCalls('cancelHotelReservation') > cancels, 20_000, 'the held cancellation', 10);
    const [room] = await hotelReservations();
    expect(room).toMatchObject({ property_id: 'GDS-JFK-001', status: 'CONFIRMED' });
    // Marked on the booking while its cancellation is out.
    expect(await beingCancelled(id)).toMatchObject({ supplier: 'SANDBOX', supplier_ref: room!.supplier_ref });

    // The airline hands the booking back to its rosters (the person's choice set manual_override), and roster N+2
    // moves the layover back to New York, the very stay the overtaken call booked, while its room's cancellation is
    // in flight; then the cancellation goes on.
    const released = await api(t, `/crew/bookings/${id}`, { method: 'PATCH', body: { manual_override: false } });
    expect(released.status).toBe(202);
    const [back] = await processed(t, onePairingRoster({ day1: MOVED_DAY1 }));
    expect(back!.booking_id).toBe(id);
    await bookingWhere(t, id, (b) => b.status !== 'PENDING', 'the move back to settle');
    await releaseSandbox('hotel.cancel');
    await waitFor(
      () =>
        logged(id, 'a superseded task’s reservation cancelled at the supplier') ||
        logged(id, 'a superseded task’s reservation is the booking’s'),
      20_000,
      "the overtaken task's end",
    );

    // The booking names a room live at the sandbox, and every room confirmed there is the booking's.
    const b = await booking(t, id);
    const rooms = await hotelReservations();
    const named = rooms.find((r) => r.supplier_ref === b.hotel.supplier_ref);
    expect({ status: b.status, room: named?.status }).toEqual({ status: 'MODIFIED', room: 'CONFIRMED' });
    expect(b.hotel.supplier_status).toBe('CONFIRMED');
    expect(rooms.filter((r) => r.status === 'CONFIRMED').map((r) => r.supplier_ref)).toEqual([b.hotel.supplier_ref]);
    // The overtaken call's room is cancelled, the booking's is another, and the mark went with the cancellation.
    expect(rooms.find((r) => r.supplier_ref === room!.supplier_ref)!.status).toBe('CANCELLED');
    expect(b.hotel.supplier_ref).not.toBe(room!.supplier_ref);
    expect(await beingCancelled(id)).toBeNull();
  });
});
