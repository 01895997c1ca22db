/**
 * The review queue's list (GET /crew/action-items: filters, sort, cursor), its settings
 * (GET/PUT /crew/config/review), and PATCH's num_nights.
 */
import { onePairingRoster } from '@crew/test-support';
import { storeDerivedReviewStates } from '../src/action-items/review-state';
import { stack, useBookingsStack, api, airline, roster, settled, hotelItem, flightItem } from './bookings-stack';

useBookingsStack('review-queue');

type Item = {
  action_id: string;
  review_status: string | null;
  due_by: string | null;
  created_at: string;
  schedule_id: string | null;
};
const ids = (items: { action_id: string }[]) => items.map((i) => i.action_id);

/** Every page of a queue query, `limit` at a time. */
async function allPages(t: Parameters<typeof api>[0], query: string, limit: number): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const res = await api(
      t,
      `/crew/action-items?${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.action_items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

describe('review settings', () => {
  it('GET answers the defaults; PUT changes only what it names; a bad value is 422 naming the field and changes nothing', async () => {
    const { t } = await airline();
    const defaults = {
      lead_time_minutes: 240,
      due_soon_minutes: 30,
      priority_targets_minutes: { P1: 5, P2: 30, P3: 60 },
    };
    expect((await api(t, '/crew/config/review')).body).toEqual(defaults);

    const lead = await api(t, '/crew/config/review', { method: 'PUT', body: { lead_time_minutes: 120 } });
    expect(lead.status).toBe(200);
    expect(lead.body).toEqual({ ...defaults, lead_time_minutes: 120 });
    const target = await api(t, '/crew/config/review', {
      method: 'PUT',
      body: { priority_targets_minutes: { P2: 20 } },
    });
    expect(target.body).toEqual({
      ...defaults,
      lead_time_minutes: 120,
      priority_targets_minutes: { P1: 5, P2: 20, P3: 60 },
    });

    for (const [body, field] of [
      [{ lead_time_minutes: -1 }, 'lead_time_minutes'],
      [{ due_soon_minutes: 1.5 }, 'due_soon_minutes'],
      [{ priority_targets_minutes: { P4: 10 } }, 'priority_targets_minutes'],
      // Past 366 days a deadline would leave the range of a date (the fuzzer found a 500 here).
      [{ lead_time_minutes: 2.5817750453719707e110 }, 'lead_time_minutes'],
      [{ priority_targets_minutes: { P2: 366 * 24 * 60 + 1 } }, 'priority_targets_minutes'],
    ] as const) {
      const bad = await api(t, '/crew/config/review', { method: 'PUT', body });
      expect(bad.status).toBe(422);
      expect(bad.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(bad.body.error.details)).toContain(field);
    }
    expect((await api(t, '/crew/config/review')).body).toEqual(target.body);
    // Another airline still has the defaults.
    expect((await api((await airline()).t, '/crew/config/review')).body).toEqual(defaults);
  });
});

describe('GET /crew/action-items', () => {
  it('lists every item of the airline; OPEN ones by due_by; filters; the cursor pages through without a gap or a repeat', async () => {
    const { t, email } = await airline({ contract: false });
    // Three rosters on windows apart, all P4: each a deadhead (BOOK_MANUALLY) and a layover without a hotel contract.
    const schedules: Awaited<ReturnType<typeof roster>>[] = [];
    for (const [i, day] of ['2027-03-25', '2027-03-09', '2027-03-17'].entries())
      schedules.push(await roster(t, onePairingRoster({ email, pairing: `P${i}`, day1: day })));
    const all = await allPages(t, '', 50);
    expect(all).toHaveLength(6);
    // Created order by default: the rosters' items in the order they were submitted.
    expect(all.map((i) => i.created_at)).toEqual([...all.map((i) => i.created_at)].sort());
    expect(all.map((i) => i.schedule_id)).toEqual(schedules.flatMap((s) => [s.id, s.id]));
    expect(ids(await allPages(t, '', 1))).toEqual(ids(all));

    // The writers keep review_status and due_by: every item is stored OPEN with its deadline, nothing left to derive.
    const rows = await stack.database.db
      .selectFrom('action_items')
      .selectAll()
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(rows.map((r) => r.review_status)).toEqual(Array(6).fill('OPEN'));
    expect(await storeDerivedReviewStates(stack.database.db, t.airlineId, rows)).toBe(0);

    const open = await allPages(t, 'review_status=OPEN', 50);
    expect(open).toHaveLength(6);
    const dues = open.map((i) => i.due_by!);
    expect(dues).toEqual([...dues].sort());
    expect(dues[0]!.startsWith('2027-03-09')).toBe(true);
    expect(ids(await allPages(t, 'review_status=OPEN', 2))).toEqual(ids(open));
    // disposition=PENDING_REVIEW sorts by due_by too; sort=created_at overrides.
    expect(ids(await allPages(t, 'disposition=PENDING_REVIEW', 4))).toEqual(ids(open));
    expect(ids(await allPages(t, 'review_status=OPEN&sort=created_at', 50))).toEqual(ids(all));

    const flights = await allPages(t, 'review_status=OPEN&type=FLIGHT', 50);
    expect(flights).toHaveLength(3);
    expect(flights.every((i) => ids(schedules.map((s) => flightItem(s.items))).includes(i.action_id))).toBe(true);
    const lhr = await allPages(t, 'station=LHR', 50);
    expect(ids(lhr).sort()).toEqual(ids(flights).sort());
    expect(ids(await allPages(t, `schedule_id=${schedules[1]!.id}`, 50)).sort()).toEqual(
      ids(schedules[1]!.items).sort(),
    );
    const early = await allPages(t, `due_before=${encodeURIComponent('2027-03-10T00:00:00Z')}`, 50);
    expect(ids(early).sort()).toEqual(ids(schedules[1]!.items).sort());

    // A dismissed item leaves the open queue.
    const gone = hotelItem(schedules[0]!.items);
    expect(
      (await api(t, `/crew/action-items/${gone.action_id}/actions`, { method: 'POST', body: { action: 'DISMISS' } }))
        .status,
    ).toBe(202);
    expect(ids(await allPages(t, 'review_status=OPEN', 50))).toEqual(ids(open).filter((id) => id !== gone.action_id));

    // A cursor is a position in one order only: passed to another it is 400.
    const page = await api(t, '/crew/action-items?review_status=OPEN&limit=1');
    const crossed = await api(t, `/crew/action-items?limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(crossed.status).toBe(400);
    // A creation-order cursor is a sequence number: one holding a timestamp (as an earlier release made) is 400.
    const stale = Buffer.from(
      JSON.stringify({ o: 'created_at', k: '2027-03-09 10:00:00+00', i: open[0]!.action_id }),
    ).toString('base64url');
    const refused = await api(t, `/crew/action-items?limit=1&cursor=${stale}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /crew/action-items/{action_id}', () => {
  it('answers one item as the queue shows it (review fields included); another airline’s is 404, as is an unknown one', async () => {
    const { t, email } = await airline({ contract: false });
    const r = await roster(t, onePairingRoster({ email }));
    const item = flightItem(r.items);
    const one = await api(t, `/crew/action-items/${item.action_id}`);
    expect(one.status).toBe(200);
    const [listed] = (await api(t, `/crew/action-items?schedule_id=${r.id}&type=FLIGHT`)).body.action_items;
    expect(one.body).toEqual(listed);
    // The list writes each item's stored JSON as it is: every item reads the same as its own answer.
    const page = await api(t, `/crew/action-items?schedule_id=${r.id}`);
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(page.body.action_items).toHaveLength(r.items.length);
    for (const each of page.body.action_items)
      expect((await api(t, `/crew/action-items/${each.action_id}`)).body).toEqual(each);
    expect(one.body).toMatchObject({
      action_id: item.action_id,
      review_status: 'OPEN',
      due_by: expect.any(String),
      available_actions: expect.arrayContaining(['DISMISS', 'ASSIGN']),
      action_taken: null,
      assignee: null,
    });
    // After an action the item reads what was done.
    const dismissed = await api(t, `/crew/action-items/${item.action_id}/actions`, {
      method: 'POST',
      body: { action: 'DISMISS', reason: 'on the shuttle' },
    });
    expect(dismissed.status).toBe(202);
    expect((await api(t, `/crew/action-items/${item.action_id}`)).body).toEqual(dismissed.body);

    const other = await airline();
    const theirs = await api(other.t, `/crew/action-items/${item.action_id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
    expect((await api(t, '/crew/action-items/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('PATCH num_nights', () => {
  it('is accepted in the hotel block (it sets the check-out date); against the dates it is 422 naming num_nights', async () => {
    const { t, email } = await airline();
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    const bad = await api(t, `/crew/bookings/${item.booking_id}`, {
      method: 'PATCH',
      body: { hotel: { check_in_date: '2027-03-10', check_out_date: '2027-03-13', num_nights: 1 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: '/hotel/num_nights', issue: expect.stringContaining('disagrees') },
    ]);
    const res = await api(t, `/crew/bookings/${item.booking_id}`, {
      method: 'PATCH',
      body: { hotel: { num_nights: 2 } },
    });
    expect(res.status).toBe(202);
    const booking = res.body.status === 'PENDING' ? await settled(t, item.booking_id) : res.body;
    expect(booking).toMatchObject({ booking_id: item.booking_id, status: 'MODIFIED' });
    expect(booking.hotel).toMatchObject({ check_in_date: '2027-03-10', check_out_date: '2027-03-12' });
    const agreeing = await api(t, `/crew/bookings/${item.booking_id}`, {
      method: 'PATCH',
      body: { hotel: { check_out_date: '2027-03-13', num_nights: 3 } },
    });
    expect(agreeing.status).toBe(202);
  });
});
