/**
 * The review queue's stored fields as the writers keep them: review_status and due_by of a roster's items (the
 * diff's COPY), of an injected item, and of an item whose booking task ends (the settle), per the engine's rules
 * with the airline's review settings.
 */
import { reviewWritesRepo, sql, type ActionItemRow } from '@crew/db';
import { dueBy, reviewSettingsOf, type ReviewItem, type ReviewSettings } from '@crew/engine';
import { contractStations, http, onePairingRoster } from '@crew/test-support';
import { stack, useBookingsStack, api, fault, airline, roster, settled, hotelItem, flightItem } from './bookings-stack';

useBookingsStack('review_state');

const row = (actionId: string): Promise<ActionItemRow> =>
  stack.database.db.selectFrom('action_items').selectAll().where('action_id', '=', actionId).executeTakeFirstOrThrow();

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The engine's due_by of a stored item, created at `createdAt` (the row's own, unless the writer dated it otherwise). */
function engineDueBy(r: ActionItemRow, settings: ReviewSettings, createdAt: Date = r.created_at): string | null {
  const item = {
    ...r,
    created_at: createdAt.toISOString(),
    disposition_at: iso(r.disposition_at),
    action_taken_at: iso(r.action_taken_at),
  } as unknown as ReviewItem;
  return dueBy(item, iso(r.event_at), settings);
}

async function storeSettings(airlineId: string, s: ReviewSettings): Promise<void> {
  await sql`insert into review_settings (airline_id, lead_time_minutes, due_soon_minutes, priority_targets_minutes)
    values (${airlineId}, ${s.lead_time_minutes}, ${s.due_soon_minutes}, ${JSON.stringify(s.priority_targets_minutes)}::jsonb)`.execute(
    stack.database.db,
  );
}

it('a roster’s items left for a person are written OPEN, due by their event less the airline’s lead time; the others have none', async () => {
  const { t, email } = await airline({ contract: false });
  // Review targets far off: the event's bound decides, so the stored settings show in every due_by.
  const settings = reviewSettingsOf({
    lead_time_minutes: 95,
    due_soon_minutes: 30,
    priority_targets_minutes: { P1: 500_000, P2: 500_000, P3: 500_000 },
  });
  await storeSettings(t.airlineId, settings);
  const r = await roster(t, onePairingRoster({ email }));
  for (const item of [hotelItem(r.items), flightItem(r.items)]) {
    expect(item.disposition).toBe('PENDING_REVIEW');
    const stored = await row(item.action_id);
    expect(stored.review_status).toBe('OPEN');
    // The diff dates its items with the processing time (their disposition_at).
    expect(iso(stored.due_by)).toBe(engineDueBy(stored, settings, stored.disposition_at!));
    expect(stored.due_by!.getTime()).toBe(stored.event_at!.getTime() - 95 * 60_000);
  }

  const contracted = await airline();
  const booked = hotelItem((await roster(contracted.t, onePairingRoster({ email: contracted.email }))).items);
  expect(booked.disposition).toBe('AUTO_BOOKED');
  expect(await row(booked.action_id)).toMatchObject({ review_status: null, due_by: null });
});

it('a booking task that ends FAILED or held for review opens its item; an automatic end after that resolves it', async () => {
  const { t, email } = await airline();
  expect((await fault({ operation: 'hotel.book', outcome: 'error' })).status).toBe(201);
  const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
  expect(item.disposition).toBe('FAILED');
  const failed = await row(item.action_id);
  // No stored settings: the defaults.
  const defaults = reviewSettingsOf(null);
  expect(failed.review_status).toBe('OPEN');
  expect(iso(failed.due_by)).toBe(engineDueBy(failed, defaults));

  await http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' });
  expect((await api(t, `/crew/bookings/${item.booking_id}/retry`, { method: 'POST' })).status).toBe(202);
  expect((await settled(t, item.booking_id)).status).toBe('CONFIRMED');
  expect(await row(item.action_id)).toMatchObject({
    disposition: 'AUTO_BOOKED',
    review_status: 'RESOLVED',
    due_by: null,
  });

  const held = await airline();
  expect((await fault({ operation: 'hotel.book', outcome: 'reject' })).status).toBe(201);
  const rejected = hotelItem((await roster(held.t, onePairingRoster({ email: held.email }))).items);
  expect(rejected.disposition).toBe('PENDING_REVIEW');
  const stored = await row(rejected.action_id);
  expect(stored.review_status).toBe('OPEN');
  expect(iso(stored.due_by)).toBe(engineDueBy(stored, defaults));
});

it('a BOOK_MANUALLY deadhead the airline commits is RESOLVED once its booking is made', async () => {
  const { t, email } = await airline({ contract: false });
  const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
  expect(await row(item.action_id)).toMatchObject({ review_status: 'OPEN', recommended_action: 'BOOK_MANUALLY' });
  const option = (await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken })).body.options[0];
  const commit = await api(t, '/crew/bookings/request', {
    method: 'POST',
    body: {
      type: 'FLIGHT',
      classification: 'NEW_DEADHEAD',
      anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
      flight: { flight_option_id: option.flight_option_id },
    },
  });
  expect(commit.status).toBe(202);
  expect((await settled(t, item.booking_id)).status).toBe('CONFIRMED');
  expect(await row(item.action_id)).toMatchObject({
    disposition: 'AUTO_BOOKED',
    review_status: 'RESOLVED',
    due_by: null,
  });
});

it('an injected item left for a person is OPEN, due by its review target; one the engine books has no review status', async () => {
  const settings = reviewSettingsOf({
    lead_time_minutes: 240,
    due_soon_minutes: 30,
    priority_targets_minutes: { P1: 7, P2: 45, P3: 90 },
  });
  const hotel = (email: string) => ({
    type: 'HOTEL',
    classification: 'NEW_LAYOVER',
    anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'IROP1' },
    hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
  });
  const open = await airline({ contract: false });
  await storeSettings(open.t.airlineId, settings);
  const res = await api(open.t, '/crew/action-items', { method: 'POST', body: hotel(open.email) });
  expect(res.status).toBe(202);
  const stored = await row(res.body.action_id);
  expect(stored).toMatchObject({ disposition: 'PENDING_REVIEW', priority: 'P2', review_status: 'OPEN' });
  expect(iso(stored.due_by)).toBe(engineDueBy(stored, settings, new Date(stored.disposition_at!)));
  // P2's target of 45 minutes from its creation (written with it, milliseconds apart).
  expect(Math.abs(stored.due_by!.getTime() - (stored.created_at.getTime() + 45 * 60_000))).toBeLessThan(5_000);

  const auto = await airline();
  const booked = await api(auto.t, '/crew/action-items', { method: 'POST', body: hotel(auto.email) });
  expect(booked.status).toBe(202);
  expect((await settled(auto.t, booked.body.booking_id)).status).toBe('CONFIRMED');
  expect(await row(booked.body.action_id)).toMatchObject({
    disposition: 'AUTO_BOOKED',
    review_status: null,
    due_by: null,
  });
});

it('an injected P4 item left for a person is OPEN with no due_by (P4 has no review target, an injection no event), before and after a settings change, and is never due soon', async () => {
  const { t, email } = await airline({ contract: false });
  const inject = (priority: string, pairing: string) =>
    api(t, '/crew/action-items', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        priority,
        anchors: { traveller_email: email, employee_id: 'E1', pairing_number: pairing },
        hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
      },
    });
  const p4 = await inject('P4', 'IROP4');
  const p3 = await inject('P3', 'IROP3');
  expect([p4.status, p3.status]).toEqual([202, 202]);
  const stored = await row(p4.body.action_id);
  expect(stored).toMatchObject({ priority: 'P4', disposition: 'PENDING_REVIEW', review_status: 'OPEN', due_by: null });
  expect(stored.event_at).toBeNull();
  // The same injection at P3 is due by its target: the null is P4's rule, not a missing deadline.
  expect((await row(p3.body.action_id)).due_by).not.toBeNull();
  const view = (await api(t, `/crew/action-items/${p4.body.action_id}`)).body;
  expect(view).toMatchObject({
    review_status: 'OPEN',
    due_by: null,
    available_actions: expect.arrayContaining(['DISMISS']),
  });

  // A settings change dates OPEN items again: P4 stays without a deadline.
  expect((await api(t, '/crew/config/review', { method: 'PUT', body: { lead_time_minutes: 10 } })).status).toBe(200);
  expect((await row(p4.body.action_id)).due_by).toBeNull();
  // The queue's deadline order puts it after every dated item; the escalation pass never marks it.
  const open = (await api(t, '/crew/action-items?review_status=OPEN')).body.action_items;
  expect(open.map((i: { action_id: string }) => i.action_id)).toEqual([p3.body.action_id, p4.body.action_id]);
  const marked = await stack.database.db
    .transaction()
    .execute((trx) => reviewWritesRepo.markDueSoon(trx, new Date('2100-01-01T00:00:00Z'), 30, 1000));
  expect(marked.map((m) => m.action_id)).not.toContain(p4.body.action_id);
  expect((await row(p4.body.action_id)).due_soon_at).toBeNull();
});

it('a change of the review settings dates the airline’s OPEN items again, and no other airline’s', async () => {
  const { t, email } = await airline({ contract: false });
  const other = await airline({ contract: false });
  const items = hotelItem((await roster(t, onePairingRoster({ email }))).items);
  const others = hotelItem((await roster(other.t, onePairingRoster({ email: other.email }))).items);
  const before = await row(others.action_id);
  const put = await api(t, '/crew/config/review', {
    method: 'PUT',
    body: { lead_time_minutes: 75, priority_targets_minutes: { P1: 400_000, P2: 400_000, P3: 400_000 } },
  });
  expect(put.status).toBe(200);
  const stored = await row(items.action_id);
  expect(stored.review_status).toBe('OPEN');
  expect(stored.due_by!.getTime()).toBe(stored.event_at!.getTime() - 75 * 60_000);
  const settings = reviewSettingsOf(put.body);
  expect(iso(stored.due_by)).toBe(engineDueBy(stored, settings));
  expect((await row(others.action_id)).due_by).toEqual(before.due_by);
});

it('an OPEN item whose booking a later roster takes over is RESOLVED, superseded by that roster’s item, which is the one left to work', async () => {
  const { t, email } = await airline({ contract: false });
  const first = await roster(t, onePairingRoster({ email }));
  const original = hotelItem(first.items);
  expect(original).toMatchObject({ review_status: 'OPEN', superseded_by: null });
  // The next roster moves the layover's check-in: its item takes the booking over.
  const moved = onePairingRoster({ email });
  const duty = (moved.pairings[0] as { duty_periods: { layover: { checkin_time_local: string } }[] }).duty_periods[0]!;
  duty.layover.checkin_time_local = '2027-03-10T17:00:00-05:00';
  const second = await roster(t, moved);
  const change = hotelItem(second.items);
  expect(change).toMatchObject({ booking_id: original.booking_id, review_status: 'OPEN' });
  const before = await api(t, `/crew/action-items/${original.action_id}`);
  expect(before.body).toMatchObject({
    disposition: 'PENDING_REVIEW',
    review_status: 'RESOLVED',
    superseded_by: change.action_id,
    due_by: null,
    available_actions: [],
    action_taken: null,
  });
  expect(await row(original.action_id)).toMatchObject({ review_status: 'RESOLVED', due_by: null });
  // Nothing to do on it any more; the queue holds the later item only.
  const acted = await api(t, `/crew/action-items/${original.action_id}/actions`, {
    method: 'POST',
    body: { action: 'DISMISS' },
  });
  expect(acted.status).toBe(409);
  const open = (await api(t, '/crew/action-items?review_status=OPEN&type=HOTEL')).body.action_items;
  expect(open.map((i: { action_id: string }) => i.action_id)).toEqual([change.action_id]);

  // The pairing dropped by a third roster: the cancellation's item supersedes the change's; a dismissed item stays DISMISSED.
  const deadhead = flightItem(first.items);
  expect(
    (await api(t, `/crew/action-items/${deadhead.action_id}/actions`, { method: 'POST', body: { action: 'DISMISS' } }))
      .status,
  ).toBe(202);
  const third = await roster(t, onePairingRoster({ email: 'other@air.test', pairing: 'P200', employee: 'E2' }));
  const dropped = third.items.find((i: { classification: string }) => i.classification === 'LAYOVER_CANCELLED')!;
  expect((await api(t, `/crew/action-items/${change.action_id}`)).body).toMatchObject({
    review_status: 'RESOLVED',
    superseded_by: dropped.action_id,
  });
  expect((await api(t, `/crew/action-items/${deadhead.action_id}`)).body).toMatchObject({
    review_status: 'DISMISSED',
    action_taken: 'DISMISS',
  });
});

it('an OPEN roster item whose booking an injection takes over (fulfils it, or cancels it) is RESOLVED, superseded by the injected item', async () => {
  const { t, email } = await airline({ contract: false });
  const layover = (extra: Record<string, unknown> = {}) => ({
    type: 'HOTEL',
    classification: 'NEW_LAYOVER',
    anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100' },
    hotel: { city: 'JFK', check_in_date: '2027-03-10', num_nights: 1 },
    ...extra,
  });
  const openIds = async () =>
    (await api(t, '/crew/action-items?review_status=OPEN')).body.action_items.map(
      (i: { action_id: string }) => i.action_id,
    );

  // No hotel configuration at JFK: the roster's layover waits for a person. Then the airline contracts JFK and
  // injects the stay: the injection fulfils that booking, under its own item.
  const first = hotelItem((await roster(t, onePairingRoster({ email }))).items);
  expect(first).toMatchObject({ disposition: 'PENDING_REVIEW', review_status: 'OPEN' });
  await contractStations(stack, t, ['JFK']);
  const injected = await api(t, '/crew/action-items', { method: 'POST', body: layover() });
  expect(injected.status).toBe(202);
  expect(injected.body.booking_id).toBe(first.booking_id);
  expect((await settled(t, first.booking_id)).status).toBe('CONFIRMED');
  expect((await api(t, `/crew/action-items/${first.action_id}`)).body).toMatchObject({
    review_status: 'RESOLVED',
    superseded_by: injected.body.action_id,
    due_by: null,
    available_actions: [],
  });
  expect(await openIds()).not.toContain(first.action_id);

  // A roster item left FAILED, its booking cancelled by an injected LAYOVER_CANCELLED.
  const other = await airline();
  expect((await fault({ operation: 'hotel.book', outcome: 'error' })).status).toBe(201);
  const failed = hotelItem((await roster(other.t, onePairingRoster({ email: other.email }))).items);
  expect(failed).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
  await http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' });
  const cancel = await api(other.t, '/crew/action-items', {
    method: 'POST',
    body: {
      ...layover(),
      anchors: { ...layover().anchors, traveller_email: other.email },
      classification: 'LAYOVER_CANCELLED',
    },
  });
  expect(cancel.status).toBe(202);
  expect(cancel.body.booking_id).toBe(failed.booking_id);
  expect((await settled(other.t, failed.booking_id)).status).toBe('CANCELLED');
  expect((await api(other.t, `/crew/action-items/${failed.action_id}`)).body).toMatchObject({
    review_status: 'RESOLVED',
    superseded_by: cancel.body.action_id,
    due_by: null,
  });
  // The booking names its item now: a retry or a later roster acts on the cancellation's item.
  expect((await api(other.t, `/crew/bookings/${failed.booking_id}`)).body.action_id).toBe(cancel.body.action_id);
  const stillOpen = (await api(other.t, '/crew/action-items?review_status=OPEN')).body.action_items;
  expect(stillOpen.map((i: { action_id: string }) => i.action_id)).not.toContain(failed.action_id);
});
