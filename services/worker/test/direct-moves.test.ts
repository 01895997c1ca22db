/**
 * A layover the roster moves away from a DIRECT hotel (docs/cost-control.md, "A move away from a DIRECT hotel"), end
 * to end: rosters over HTTP, the worker's diff and booking tasks, the rooming lists e-mailed to an SMTP server in this
 * process, and the hotels' answers posted to the confirmation page as its form posts them. The old hotel is Crew Inn
 * JFK (DIRECT, America/New_York), whose contract's deadline is 18:00 four days before arrival: Monday 15 March 2027,
 * 18:00 EDT = 22:00Z. Lists leave at once (ROOMING_LEAD_HOURS 0).
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
  DAY1,
  DEADLINE,
  invoiceLine,
  londonLayover,
  movedStays,
  NIGHT,
  reconciledInvoice,
  startSmtpSink,
  type Channel,
} from './moved-stays';

jest.setTimeout(120_000);

let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let clock = new Date('2027-03-13T12:00:00Z');

beforeAll(async () => {
  // The tests answer the lists by their stored ids, not by the mail.
  smtp = await startSmtpSink();
  stack = await startStack('direct_moves', {
    worker: true,
    now: () => clock,
    env: { ...smtp.env, ROOMING_LEAD_HOURS: '0', ROOMING_POLL_MS: '200' },
  });
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

/** JFK's and LHR's hotels on the given channels; JFK's contract has the terms (read in New York time). */
const airlineWith = (channels: { JFK: Channel; LHR: Channel }): Promise<Tenant> =>
  airlineWithHotels(stack, 'Moves', 'M', channels);

/** The same layover key moved to London: Friday 19 March 2027, 20:00 to Saturday 09:00 GMT. */
const movedToLondon = () => londonLayover(DAY1);

async function processed(t: Tenant, body: unknown, at: string) {
  clock = new Date(at);
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  const id = res.body.schedule_id as string;
  await waitForSchedule(stack, t.accessToken, id);
  const items = await allActionItems(stack, t.accessToken, id, '&type=HOTEL');
  return { id, items };
}

const booking = async (t: Tenant, id: string) =>
  (await http(`${stack.apiUrl}/api/v1/crew/bookings/${id}`, { token: t.accessToken })).body;

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

/** The booking's rooming-list rows, oldest first, with the hotel each list goes to and the list's state. */
const roomingRows = (bookingId: string) =>
  stack.database.db
    .selectFrom('rooming_rows as r')
    .innerJoin('rooming_lists as l', 'l.list_id', 'r.list_id')
    .innerJoin('hotel_configs as h', 'h.hotel_config_id', 'l.hotel_config_id')
    .select(['r.row_id', 'r.list_id', 'r.marking', 'r.state', 'h.property_id', 'l.status as list_status'])
    .where('r.booking_id', '=', bookingId)
    .orderBy('r.row_id')
    .execute();

const rowsAt = async (bookingId: string) =>
  (await roomingRows(bookingId)).map((r) => ({ property_id: r.property_id, marking: r.marking, state: r.state }));

/**
 * The hotel's answer to a sent list, as the confirmation page's form posts it (the link signed as the worker's
 * e-mail signs it): one number for the whole list, or per row a rejection with its reason.
 */
async function answerList(listId: string, answer: { number: string } | { reject: string }): Promise<void> {
  const l = await stack.database.db
    .selectFrom('rooming_lists')
    .selectAll()
    .where('list_id', '=', listId)
    .executeTakeFirstOrThrow();
  expect(l.status).toBe('SENT');
  const key = roomingLinkKey(stack.opsToken);
  const token = signRoomingLink(key, {
    list_id: l.list_id,
    hotel_config_id: l.hotel_config_id,
    version: l.version,
    exp: Math.floor(l.expires_at!.getTime() / 1000),
  });
  const form = new URLSearchParams({ form_token: roomingFormToken(key, token) });
  if ('number' in answer) form.set('list_number', answer.number);
  else
    for (const r of await stack.database.db
      .selectFrom('rooming_rows')
      .select('row_id')
      .where('list_id', '=', listId)
      .where('state', '=', 'SENT')
      .execute()) {
      form.set(`reject_${r.row_id}`, '1');
      form.set(`reason_${r.row_id}`, answer.reject);
    }
  const res = await fetch(`${stack.apiUrl}/hotel/rooming-lists/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  expect(res.status).toBe(200);
}

/** The list of the booking's row at that hotel with that marking, once it is sent. */
async function sentList(bookingId: string, property: string, marking: string): Promise<string> {
  const row = await waitFor(
    async () =>
      (await roomingRows(bookingId)).find(
        (r) => r.property_id === property && r.marking === marking && r.list_status === 'SENT',
      ),
    20_000,
    () => `${marking} row of ${bookingId} at ${property} sent`,
  );
  return row.list_id;
}

/** A stay booked at Crew Inn JFK and confirmed by the hotel (its NEW row answered). */
async function confirmedAtJfk(t: Tenant): Promise<string> {
  const first = await processed(t, onePairingRoster({ day1: DAY1 }), '2027-03-13T12:00:00Z');
  expect(first.items.map((i) => i.classification)).toEqual(['NEW_LAYOVER']);
  const id = first.items[0]!.booking_id!;
  await answerList(await sentList(id, 'CREWINN-JFK', 'NEW'), { number: 'JFK-1' });
  await bookingWhere(t, id, (b) => b.status === 'CONFIRMED', 'CONFIRMED at JFK');
  return id;
}

/** The booking's task of that operation as the queue kept it (completed). */
async function completedTask(bookingId: string, operation: string) {
  const jobs = await stack.queues.bookings.getJobs(['completed']);
  return jobs.find((j) => j?.data.booking_id === bookingId && j.data.operation === operation);
}

describe('DIRECT to DIRECT: the old hotel is sent a CANCELLED row, the new one a NEW row', () => {
  it('in time: the old hotel’s confirmation records the fee avoided; a re-delivered task places no second row', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'DIRECT' });
    const id = await confirmedAtJfk(t);
    // Ten hours before the JFK deadline.
    const moved = await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    expect(moved.items[0]).toMatchObject({ classification: 'LAYOVER_CITY_CHANGE' });
    const oldList = await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    const newList = await sentList(id, 'CREWINN-LHR', 'NEW');
    expect(await rowsAt(id)).toEqual([
      { property_id: 'CREWINN-JFK', marking: 'NEW', state: 'CONFIRMED' },
      { property_id: 'CREWINN-JFK', marking: 'CANCELLED', state: 'SENT' },
      { property_id: 'CREWINN-LHR', marking: 'NEW', state: 'SENT' },
    ]);
    const waiting = await booking(t, id);
    expect(waiting).toMatchObject({
      status: 'PENDING',
      hotel: { property_id: 'CREWINN-LHR', rooming_marking: 'NEW', rooming_list_id: newList, rooming_status: 'SENT' },
    });
    // The JFK hotel's number is not the London stay's.
    expect(waiting.hotel.confirmation_number).toBeUndefined();
    expect(waiting.hotel.cancellation_penalty_avoided).toBeUndefined();
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED' });
    expect(item!.message).toContain("on the hotel's rooming list of 2027-03-19");
    expect(item!.message).toContain(
      'Crew Inn JFK, which the stay moved away from, gets a CANCELLED row on its rooming list of 2027-03-19',
    );

    // The task delivered again (a stalled worker, say): the same rows, none twice.
    const task = (await completedTask(id, 'AMEND'))!;
    await task.retry('completed');
    await waitFor(
      async () => (await stack.queues.bookings.getJob(task.id!))?.finishedOn !== task.finishedOn,
      15_000,
      () => 'the task delivered again',
    );
    expect(await roomingRows(id)).toHaveLength(3);

    // The old hotel confirms the cancellation: sent in time, the fee it avoided goes on the booking.
    clock = new Date('2027-03-15T13:00:00Z');
    await answerList(oldList, { number: 'JFK-CX' });
    const cancelled = await bookingWhere(t, id, (b) => !!b.hotel.cancellation_penalty_avoided, 'fee avoided');
    expect(cancelled).toMatchObject({ status: 'PENDING', hotel: { cancellation_penalty_avoided: NIGHT } });
    expect(cancelled.hotel.cancellation_penalty).toBeUndefined();
    // The new hotel confirms the stay: CONFIRMED there, the fee avoided kept.
    await answerList(newList, { number: 'LHR-1' });
    const done = await bookingWhere(t, id, (b) => b.status === 'CONFIRMED', 'CONFIRMED at LHR');
    expect(done.hotel).toMatchObject({
      property_id: 'CREWINN-LHR',
      confirmation_number: 'LHR-1',
      cancellation_penalty_avoided: NIGHT,
    });
    expect(await rowsAt(id)).toEqual([
      { property_id: 'CREWINN-JFK', marking: 'NEW', state: 'CONFIRMED' },
      { property_id: 'CREWINN-JFK', marking: 'CANCELLED', state: 'CONFIRMED' },
      { property_id: 'CREWINN-LHR', marking: 'NEW', state: 'CONFIRMED' },
    ]);
  });

  it('after the deadline: the old hotel’s confirmation records the late fee', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'DIRECT' });
    const id = await confirmedAtJfk(t);
    await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    const oldList = await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    await answerList(oldList, { number: 'JFK-CX' });
    const b = await bookingWhere(t, id, (x) => !!x.hotel.cancellation_penalty, 'late fee');
    expect(b.hotel.cancellation_penalty).toEqual(NIGHT);
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
  });
});

describe('the old DIRECT hotel’s invoice of the stay moved away from it', () => {
  it('DIRECT to DIRECT after the deadline: its late fee, by the number it confirmed the stay under, matches the stay there', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'DIRECT' });
    const id = await confirmedAtJfk(t);
    await processed(t, movedToLondon(), '2027-03-15T22:30:00Z');
    await answerList(await sentList(id, 'CREWINN-JFK', 'CANCELLED'), { number: 'JFK-CX' });
    await bookingWhere(t, id, (x) => !!x.hotel.cancellation_penalty, 'late fee');
    const lines = await reconciledInvoice(stack, t, 'CI-JFK-1', 'CREWINN-JFK', [
      invoiceLine(1, {
        employee_id: 'E1',
        confirmation_number: 'JFK-1',
        fees: [{ type: 'LATE_CANCEL', amount: NIGHT }],
      }),
    ]);
    expect(lines).toMatchObject([{ status: 'MATCHED', booking_id: id, disputed: { amount: 0 } }]);
    expect(await movedStays(stack, id)).toMatchObject([
      { property_id: 'CREWINN-JFK', confirmation_number: 'JFK-1', check_in_date: DAY1, cancellation_penalty: NIGHT },
    ]);
  });

  it('DIRECT to GDS in time: a night it charges is disputed as charged after a timely cancellation', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'GDS' });
    const id = await confirmedAtJfk(t);
    await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    await bookingWhere(t, id, (x) => x.status === 'MODIFIED', 'MODIFIED at LHR');
    clock = new Date('2027-03-15T13:00:00Z');
    await answerList(await sentList(id, 'CREWINN-JFK', 'CANCELLED'), { number: 'JFK-CX' });
    await bookingWhere(t, id, (x) => !!x.hotel.cancellation_penalty_avoided, 'fee avoided');
    const lines = await reconciledInvoice(stack, t, 'CI-JFK-2', 'CREWINN-JFK', [
      invoiceLine(1, { employee_id: 'E1', nights: 1, nightly_rate: NIGHT }),
    ]);
    expect(lines).toMatchObject([{ status: 'CHARGED_AFTER_TIMELY_CANCEL', booking_id: id, disputed: { amount: 180 } }]);
  });
});

describe('DIRECT to GDS: the old hotel’s CANCELLED row is placed before the supplier books the new room', () => {
  const fault = async (body: Record<string, unknown>) =>
    expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);

  it('the booking MODIFIED at the supplier; the fee recorded when the old hotel confirms', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'GDS' });
    const id = await confirmedAtJfk(t);
    const moved = await processed(t, movedToLondon(), '2027-03-15T12:00:00Z');
    const b = await bookingWhere(t, id, (x) => x.status === 'MODIFIED', 'MODIFIED at LHR');
    expect(b.hotel).toMatchObject({ property_id: 'GDS-LHR-001', supplier: 'SANDBOX' });
    // The block is the supplier's room now: the old hotel's row and number are gone from it.
    expect(b.hotel.rooming_list_id).toBeUndefined();
    expect(b.hotel.rooming_ref).toBeUndefined();
    expect(b.hotel.confirmation_number).not.toBe('JFK-1');
    expect(b.hotel.cancellation_penalty_avoided).toBeUndefined();
    const oldList = await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    expect(await rowsAt(id)).toEqual([
      { property_id: 'CREWINN-JFK', marking: 'NEW', state: 'CONFIRMED' },
      { property_id: 'CREWINN-JFK', marking: 'CANCELLED', state: 'SENT' },
    ]);
    const [item] = await allActionItems(stack, t.accessToken, moved.id, '&type=HOTEL');
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED' });
    expect(item!.message).toContain('Crew Inn JFK, which the stay moved away from, gets a CANCELLED row');

    clock = new Date('2027-03-15T13:00:00Z');
    await answerList(oldList, { number: 'JFK-CX' });
    const done = await bookingWhere(t, id, (x) => !!x.hotel.cancellation_penalty_avoided, 'fee avoided');
    expect(done).toMatchObject({ status: 'MODIFIED', hotel: { cancellation_penalty_avoided: NIGHT } });
    expect(done.hotel.cancellation_penalty).toBeUndefined();
  });

  it('the supplier failing first: the old hotel was told once, before; its fee is judged by its list, not the supplier’s retry', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'GDS' });
    const id = await confirmedAtJfk(t);
    await fault({ operation: 'hotel.book', outcome: 'error', count: 1 });
    // An hour before the JFK deadline: the old hotel's list leaves at once, in time.
    await processed(t, movedToLondon(), '2027-03-15T21:00:00Z');
    await bookingWhere(t, id, (x) => x.status === 'FAILED', 'FAILED at the supplier');
    const oldList = await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    // The automatic retry books the new room after the deadline.
    let retry: Awaited<ReturnType<typeof stack.queues.bookings.getJobs>>[number] | undefined;
    await waitFor(
      async () => {
        retry = (await stack.queues.bookings.getJobs(['delayed'])).find(
          (j) => j?.data.booking_id === id && j.data.automatic,
        );
        return retry !== undefined;
      },
      15_000,
      () => `automatic retry of ${id} queued`,
    );
    clock = new Date('2027-03-15T22:30:00Z');
    await retry!.promote();
    await bookingWhere(t, id, (x) => x.status === 'MODIFIED', 'MODIFIED at LHR');
    expect(await rowsAt(id)).toEqual([
      { property_id: 'CREWINN-JFK', marking: 'NEW', state: 'CONFIRMED' },
      { property_id: 'CREWINN-JFK', marking: 'CANCELLED', state: 'SENT' },
    ]);
    await answerList(oldList, { number: 'JFK-CX' });
    const done = await bookingWhere(t, id, (x) => !!x.hotel.cancellation_penalty_avoided, 'fee avoided');
    expect(done.hotel.cancellation_penalty_avoided).toEqual(NIGHT);
    expect(done.hotel.cancellation_penalty).toBeUndefined();
  });
});

describe('the old hotel rejects its CANCELLED row, or does not answer it: a person is told, due at the deadline', () => {
  /** The move's item as the queue shows it. */
  const itemOf = async (t: Tenant, scheduleId: string) =>
    (await allActionItems(stack, t.accessToken, scheduleId, '&type=HOTEL'))[0]!;

  /**
   * A stay confirmed at Crew Inn JFK, moved to London two days before the deadline (by the review rules alone, P3
   * with the check-in days away, its item would be due sooner); JFK rejects its CANCELLED row. The move's item once
   * it waits for a person, and London's list still to answer.
   */
  const rejectedMove = async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'DIRECT' });
    const id = await confirmedAtJfk(t);
    const moved = await processed(t, movedToLondon(), '2027-03-13T22:00:00Z');
    const oldList = await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    const newList = await sentList(id, 'CREWINN-LHR', 'NEW');
    await answerList(oldList, { reject: 'cancellations by telephone only' });
    const item = await waitFor(
      async () => {
        const i = await itemOf(t, moved.id);
        return i.disposition === 'PENDING_REVIEW' && i.review_status === 'OPEN' && i;
      },
      15_000,
      () => 'the move’s item in review',
    );
    return { t, id, moved, newList, item };
  };

  it('DIRECT to DIRECT, rejected: the item waits for a person; the new hotel’s confirmation later leaves it so', async () => {
    const { t, id, moved, newList, item } = await rejectedMove();
    expect(item).toMatchObject({ review_status: 'OPEN', due_by: DEADLINE });
    expect(item.available_actions).toEqual(['DISMISS', 'ASSIGN']);
    expect(item.message).toContain(
      'Crew Inn JFK, which the stay moved away from, rejected its cancellation (cancellations by telephone only) and still holds the room',
    );
    // The booking is its London stay's, waiting for that hotel; no fee was recorded.
    const waiting = await booking(t, id);
    expect(waiting.status).toBe('PENDING');
    expect(waiting.hotel.cancellation_penalty_avoided).toBeUndefined();
    await answerList(newList, { number: 'LHR-1' });
    await bookingWhere(t, id, (b) => b.status === 'CONFIRMED', 'CONFIRMED at LHR');
    expect(await itemOf(t, moved.id)).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      due_by: DEADLINE,
    });
  });

  it('a person who dismissed that item is not asked again when the new hotel confirms later', async () => {
    const { t, id, moved, newList, item } = await rejectedMove();
    const dismissed = await http(`${stack.apiUrl}/api/v1/crew/action-items/${item.action_id}/actions`, {
      method: 'POST',
      token: t.accessToken,
      body: { action: 'DISMISS', reason: 'released by telephone', acting_user: 'desk@air.test' },
    });
    expect(dismissed.status).toBe(202);
    await answerList(newList, { number: 'LHR-1' });
    await bookingWhere(t, id, (b) => b.status === 'CONFIRMED', 'CONFIRMED at LHR');
    expect(await itemOf(t, moved.id)).toMatchObject({ review_status: 'DISMISSED', action_taken: 'DISMISS' });
  });

  it('DIRECT to GDS, not answered by the list’s deadline: the item waits for a person, the booking stays MODIFIED', async () => {
    const t = await airlineWith({ JFK: 'DIRECT', LHR: 'GDS' });
    const id = await confirmedAtJfk(t);
    const moved = await processed(t, movedToLondon(), '2027-03-13T22:00:00Z');
    await bookingWhere(t, id, (b) => b.status === 'MODIFIED', 'MODIFIED at LHR');
    await sentList(id, 'CREWINN-JFK', 'CANCELLED');
    // The worker's pass after the list's answer deadline (ROOMING_ANSWER_HOURS, 24 h after it was sent).
    clock = new Date('2027-03-14T23:00:00Z');
    await stack.worker!.rooming.tick();
    expect((await rowsAt(id))[1]).toEqual({ property_id: 'CREWINN-JFK', marking: 'CANCELLED', state: 'EXPIRED' });
    const item = await itemOf(t, moved.id);
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', review_status: 'OPEN', due_by: DEADLINE });
    expect(item.message).toContain('Crew Inn JFK, which the stay moved away from, did not answer its cancellation');
    expect((await booking(t, id)).status).toBe('MODIFIED');
  });
});
