import fc from 'fast-check';
import {
  availableActions,
  commitResolution,
  decideReviewAction,
  holdsSupplierReservation,
  offersFlightOptions,
  REVIEW_ACTIONS,
  resolvedByPerson,
  reviewStatusOf,
  type ReviewAction,
  type ReviewBooking,
  type ReviewContext,
  type ReviewItem,
} from '../src';
import { booking, BY, CTX, hotelBooking, hotelItem, item, NOW, room, ticket } from './review-fixtures';

describe('availableActions: the rules table', () => {
  const rows: [string, ReviewItem, ReviewBooking | null, ReviewContext, ReviewAction[]][] = [
    [
      'deadhead BOOK_MANUALLY, nothing booked, live options',
      item(),
      booking({ task_operation: null }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      'deadhead BOOK_MANUALLY, a search found no options',
      item(),
      booking(),
      { ...CTX, flight_options_available: false },
      ['RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      'deadhead BOOK_MANUALLY, the traveller has no date of birth',
      item(),
      booking(),
      { ...CTX, traveller_has_dob: false },
      ['RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      "leg on the airline's own carrier (BOOK_IN_OWN_SYSTEM)",
      item({ recommended_action: 'BOOK_IN_OWN_SYSTEM' }),
      booking({ task_operation: 'BOOK' }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      'supplier refused the flight (NEEDS_REVIEW, nothing held)',
      item(),
      booking({ task_operation: 'BOOK', flight: { supplier_status: 'REFUSED', supplier_ref: 'X' } }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      'hotel price review (room held, STRICT rate mismatch)',
      hotelItem(),
      hotelBooking({ task_operation: 'BOOK', hotel: { ...room, rate_flag: 'supplier price differs' } }),
      CTX,
      ['ACCEPT_PRICE', 'DISMISS', 'ASSIGN'],
    ],
    [
      'flight fare above the ceiling at ticketing (ticket held)',
      item({ recommended_action: null }),
      booking({ task_operation: 'BOOK', flight: ticket }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'ACCEPT_PRICE', 'DISMISS', 'ASSIGN'],
    ],
    [
      'hotel with no configuration at the station (nothing held)',
      hotelItem(),
      hotelBooking(),
      CTX,
      ['BOOK_HOTEL', 'DISMISS', 'ASSIGN'],
    ],
    [
      'hotel supplier refused (NEEDS_REVIEW, nothing held)',
      hotelItem(),
      hotelBooking({ task_operation: 'BOOK' }),
      CTX,
      ['BOOK_HOTEL', 'DISMISS', 'ASSIGN'],
    ],
    [
      'FAILED hotel booking with retries left',
      hotelItem({ disposition: 'FAILED' }),
      hotelBooking({ status: 'FAILED', task_operation: 'BOOK', retry_count: 1 }),
      CTX,
      ['BOOK_HOTEL', 'RETRY', 'DISMISS', 'ASSIGN'],
    ],
    [
      'FAILED flight booking, retries used up',
      item({ disposition: 'FAILED', recommended_action: null }),
      booking({ status: 'FAILED', task_operation: 'BOOK', retry_count: 3 }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
    ],
    [
      'roster dropped a confirmed layover, cancellation execution off',
      hotelItem({ subtype: 'CANCEL', classification: 'LAYOVER_CANCELLED' }),
      hotelBooking({ status: 'NEEDS_REVIEW', hotel: room }),
      CTX,
      ['CANCEL_BOOKING', 'DISMISS', 'ASSIGN'],
    ],
    [
      'a confirmed booking a person may cancel (CANCEL item)',
      item({ subtype: 'CANCEL', classification: 'DEADHEAD_CANCELLED', recommended_action: null }),
      booking({ status: 'CONFIRMED', flight: ticket }),
      CTX,
      ['CANCEL_BOOKING', 'DISMISS', 'ASSIGN'],
    ],
    [
      'cancellation refused by the supplier (ticket still held)',
      item({ subtype: 'CANCEL', classification: 'DEADHEAD_CANCELLED', recommended_action: null }),
      booking({ task_operation: 'CANCEL', flight: ticket }),
      CTX,
      ['CANCEL_BOOKING', 'DISMISS', 'ASSIGN'],
    ],
    [
      'cancellation FAILED (transient)',
      hotelItem({ subtype: 'CANCEL', classification: 'LAYOVER_CANCELLED', disposition: 'FAILED' }),
      hotelBooking({ status: 'FAILED', task_operation: 'CANCEL', hotel: room }),
      CTX,
      ['RETRY', 'CANCEL_BOOKING', 'DISMISS', 'ASSIGN'],
    ],
    [
      'airline-initiated change awaiting acceptance',
      item({ recommended_action: 'ACCEPT_CHANGE', disposition: 'PENDING_REVIEW' }),
      booking({ task_operation: 'BOOK', flight: { ...ticket, airline_change_id: 'oac_1' } }),
      CTX,
      ['BOOK_FLIGHT_OPTION', 'ACCEPT_CHANGE', 'DISMISS', 'ASSIGN'],
    ],
    [
      'date change held for review (modification off, room held at the old dates)',
      hotelItem({ subtype: 'MODIFY', classification: 'LAYOVER_DATE_CHANGE' }),
      hotelBooking({ task_operation: null, hotel: room }),
      CTX,
      ['DISMISS', 'ASSIGN'],
    ],
    [
      'a supplier task runs (booking PENDING)',
      item({ disposition: 'FAILED', recommended_action: null }),
      booking({ status: 'PENDING', task_operation: 'BOOK', retry_count: 1 }),
      CTX,
      ['DISMISS', 'ASSIGN'],
    ],
    ['booking CANCELLED', item(), booking({ status: 'CANCELLED' }), CTX, ['DISMISS', 'ASSIGN']],
    ['review item without a booking yet', item({ booking_id: null }), null, CTX, ['DISMISS', 'ASSIGN']],
    [
      'never needed a person (AUTO_BOOKED)',
      item({ disposition: 'AUTO_BOOKED', recommended_action: null }),
      booking({ status: 'CONFIRMED', flight: ticket }),
      CTX,
      [],
    ],
    [
      'resolved by a person',
      item({ action_taken: 'RECORD_PNR', action_taken_at: NOW, action_taken_by: 'desk@airline.test' }),
      booking(),
      CTX,
      [],
    ],
    [
      'dismissed',
      item({ action_taken: 'DISMISS', action_taken_at: NOW, action_taken_by: 'desk@airline.test' }),
      booking(),
      CTX,
      [],
    ],
  ];

  test.each(rows)('%s', (_name, i, b, ctx, expected) => {
    expect(availableActions(i, b, ctx)).toEqual(expected);
  });

  test('every answer is drawn from the fixed set, in its order, and empty unless the item is OPEN', () => {
    const statuses = ['PENDING', 'CONFIRMED', 'MODIFIED', 'CANCELLED', 'FAILED', 'NEEDS_REVIEW'] as const;
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom('HOTEL', 'FLIGHT' as const),
          subtype: fc.constantFrom('NEW_BOOKING', 'MODIFY', 'CANCEL' as const),
          disposition: fc.constantFrom('AUTO_BOOKED', 'AUTO_CANCELLED', 'PENDING_REVIEW', 'FAILED', null),
          recommended_action: fc.constantFrom(null, 'BOOK_MANUALLY', 'ACCEPT_CHANGE', 'BOOK_IN_OWN_SYSTEM'),
          action_taken: fc.constantFrom<ReviewAction | null>(null, ...REVIEW_ACTIONS),
        }),
        fc.option(
          fc.record({
            status: fc.constantFrom(...statuses),
            retry_count: fc.integer({ min: 0, max: 5 }),
            task_operation: fc.constantFrom('BOOK', 'AMEND', 'CANCEL', null),
            held: fc.boolean(),
            change: fc.boolean(),
          }),
          { nil: null },
        ),
        fc.boolean(),
        (i, b, options) => {
          const it = item({ ...i, action_taken_at: i.action_taken ? NOW : null, action_taken_by: 'x' });
          const bk = b
            ? booking({
                type: i.type,
                status: b.status,
                retry_count: b.retry_count,
                task_operation: b.task_operation,
                hotel: i.type === 'HOTEL' ? (b.held ? { ...room, rate_flag: 'differs' } : {}) : null,
                flight:
                  i.type === 'FLIGHT' ? { ...(b.held ? ticket : {}), airline_change_id: b.change ? 'c' : null } : null,
              })
            : null;
          const got = availableActions(it, bk, { max_retries: 3, flight_options_available: options });
          const order = got.map((a) => REVIEW_ACTIONS.indexOf(a));
          expect(order).toEqual([...order].sort((x, y) => x - y));
          if (reviewStatusOf(it) !== 'OPEN') expect(got).toEqual([]);
          else expect(got).toEqual(expect.arrayContaining(['DISMISS', 'ASSIGN']));
          if (i.type === 'HOTEL') expect(got).not.toContain('BOOK_FLIGHT_OPTION');
          if (i.type === 'FLIGHT') expect(got).not.toContain('BOOK_HOTEL');
          // RECORD_PNR never beside a held ticket: it would be a second one.
          if (bk?.flight?.supplier_ref) expect(got).not.toContain('RECORD_PNR');
          if (got.includes('RETRY')) expect(bk).toMatchObject({ status: 'FAILED' });
        },
      ),
    );
  });
});

describe('availableActions offers only what the queue can carry out', () => {
  const held = hotelBooking({ task_operation: 'BOOK', hotel: { ...room, rate_flag: 'supplier price differs' } });

  test('no BOOK_HOTEL in place of a held room: the supplier keeps one reservation per booking', () => {
    expect(availableActions(hotelItem(), held, CTX)).toEqual(['ACCEPT_PRICE', 'DISMISS', 'ASSIGN']);
    const moved = hotelItem({ subtype: 'MODIFY', classification: 'LAYOVER_DATE_CHANGE' });
    expect(availableActions(moved, hotelBooking({ hotel: room }), CTX)).toEqual(['DISMISS', 'ASSIGN']);
    // A DIRECT hotel's confirmed rooming-list row holds the room as a supplier reservation does.
    const direct = hotelBooking({ hotel: { rooming_status: 'CONFIRMED', rooming_marking: 'NEW' } });
    expect(availableActions(moved, direct, CTX)).not.toContain('BOOK_HOTEL');
    // A room the supplier has cancelled holds nothing: another hotel may be booked.
    const gone = hotelBooking({ hotel: { ...room, supplier_status: 'CANCELLED' } });
    expect(availableActions(moved, gone, CTX)).toContain('BOOK_HOTEL');
  });

  test('an item without a booking allows DISMISS and ASSIGN only: a booking is requested, not made from the queue', () => {
    expect(availableActions(item({ booking_id: null }), null, CTX)).toEqual(['DISMISS', 'ASSIGN']);
    expect(availableActions(hotelItem({ booking_id: null }), null, CTX)).toEqual(['DISMISS', 'ASSIGN']);
    expect(availableActions(item({ booking_id: null, disposition: 'FAILED' }), null, CTX)).toEqual([
      'DISMISS',
      'ASSIGN',
    ]);
  });

  test('acting so is 409 (NOT_AVAILABLE), saying why', () => {
    expect(decideReviewAction(hotelItem(), held, 'BOOK_HOTEL', { ...BY, property_id: 'P9' }, NOW, CTX)).toMatchObject({
      kind: 'NOT_AVAILABLE',
      available: ['ACCEPT_PRICE', 'DISMISS', 'ASSIGN'],
    });
    const none = decideReviewAction(
      item({ booking_id: null }),
      null,
      'BOOK_FLIGHT_OPTION',
      { ...BY, flight_option_id: 'o' },
      NOW,
      CTX,
    );
    expect(none).toMatchObject({ kind: 'NOT_AVAILABLE', available: ['DISMISS', 'ASSIGN'] });
    expect(none.kind === 'NOT_AVAILABLE' && none.message).toMatch(/no booking.*POST \/crew\/bookings\/request/);
    expect(decideReviewAction(item({ booking_id: null }), null, 'DISMISS', BY, NOW, CTX)).toMatchObject({
      kind: 'ACCEPTED',
      operation: null,
    });
  });

  test('whatever the item and its booking: no BOOK_HOTEL beside a held room, no booking operation without a booking', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('HOTEL', 'FLIGHT' as const),
        fc.constantFrom('NEW_BOOKING', 'MODIFY', 'CANCEL' as const),
        fc.constantFrom('PENDING_REVIEW', 'FAILED' as const),
        fc.option(
          fc.record({
            status: fc.constantFrom('PENDING', 'CONFIRMED', 'MODIFIED', 'CANCELLED', 'FAILED', 'NEEDS_REVIEW' as const),
            task_operation: fc.constantFrom('BOOK', 'AMEND', 'CANCEL', null),
            hotel: fc.constantFrom(
              {},
              room,
              { ...room, rate_flag: 'differs' },
              { rooming_status: 'CONFIRMED' as const },
            ),
          }),
          { nil: null },
        ),
        (type, subtype, disposition, b) => {
          const it = item({ type, subtype, disposition, booking_id: b ? 'b-1' : null });
          const bk = b ? booking({ ...b, type, hotel: type === 'HOTEL' ? b.hotel : null }) : null;
          const got = availableActions(it, bk, CTX);
          if (!bk) expect(got).toEqual(['DISMISS', 'ASSIGN']);
          else if (holdsSupplierReservation(bk)) expect(got).not.toContain('BOOK_HOTEL');
        },
      ),
    );
  });
});

describe('offersFlightOptions: the flight_options_url of a FLIGHT item awaiting a manual choice', () => {
  const offers = (it: ReviewItem, b: ReviewBooking | null, ctx: ReviewContext = CTX) =>
    offersFlightOptions(it, availableActions(it, b, ctx));

  test('a deadhead left for a person, and one whose booking failed or was refused after the diff, offers options', () => {
    expect(offers(item(), booking({ task_operation: null }))).toBe(true);
    const failed = item({ disposition: 'FAILED', recommended_action: null });
    expect(offers(failed, booking({ status: 'FAILED', task_operation: 'BOOK', retry_count: 3 }))).toBe(true);
    const refused = item({ recommended_action: null });
    const refusedBooking = booking({
      task_operation: 'BOOK',
      flight: { supplier_status: 'REFUSED', supplier_ref: 'X' },
    });
    expect(offers(refused, refusedBooking)).toBe(true);
  });

  test('BOOK_MANUALLY keeps the link while the item waits, even where the queue cannot book an option itself', () => {
    expect(offers(item(), booking(), { ...CTX, traveller_has_dob: false })).toBe(true);
    expect(offers(item(), booking(), { ...CTX, flight_options_available: false })).toBe(true);
    // No recommendation and no option to book (no date of birth): nothing to choose from here.
    expect(offers(item({ recommended_action: null }), booking(), { ...CTX, traveller_has_dob: false })).toBe(false);
  });

  test('no link once the choice is made or dismissed, nor on a hotel item', () => {
    const made = { action_taken: 'BOOK_FLIGHT_OPTION' as const, action_taken_at: NOW, action_taken_by: 'a@x' };
    expect(offers(item(made), booking({ status: 'CONFIRMED' }))).toBe(false);
    expect(offers(item({ ...made, action_taken: 'DISMISS' }), booking())).toBe(false);
    expect(offers(hotelItem({ recommended_action: 'BOOK_MANUALLY' }), hotelBooking({ task_operation: null }))).toBe(
      false,
    );
  });
});

describe('holdsSupplierReservation', () => {
  test('a room or ticket the supplier holds; not a cancelled or refused one, nor a cancelled rooming row', () => {
    const hotel = (h: ReviewBooking['hotel']) => holdsSupplierReservation({ hotel: h, flight: null });
    const flight = (f: ReviewBooking['flight']) => holdsSupplierReservation({ hotel: null, flight: f });
    expect(hotel(room)).toBe(true);
    expect(hotel({ ...room, supplier_status: 'CANCELLED' })).toBe(false);
    expect(hotel({ rooming_status: 'CONFIRMED', rooming_marking: 'NEW' })).toBe(true);
    expect(hotel({ rooming_status: 'CONFIRMED', rooming_marking: 'CANCELLED' })).toBe(false);
    expect(hotel({ rooming_status: 'REJECTED' })).toBe(false);
    expect(flight(ticket)).toBe(true);
    // A crew seat the airline booked in its own system: a PNR, no supplier order.
    expect(flight({ pnr: 'ABC123', supplier_status: 'CONFIRMED' })).toBe(true);
    expect(flight({ supplier_ref: 'X', supplier_status: 'REFUSED' })).toBe(false);
    expect(flight({ ...ticket, supplier_status: 'CANCELLED' })).toBe(false);
    expect(flight({})).toBe(false);
  });
});

describe('commitResolution: a commit that fulfils a booking left for a person', () => {
  it('records the action by kind of commit, clears the recommendation, and counts as resolved by a person', () => {
    expect(commitResolution({ type: 'FLIGHT', recordsTicket: false }, 'desk@airline.test', NOW)).toEqual({
      review_status: 'RESOLVED',
      action_taken: 'BOOK_FLIGHT_OPTION',
      action_taken_at: NOW,
      action_taken_by: 'desk@airline.test',
      recommended_action: null,
      flight_options_url: null,
    });
    expect(commitResolution({ type: 'FLIGHT', recordsTicket: true }, 'x', NOW).action_taken).toBe('RECORD_PNR');
    expect(commitResolution({ type: 'HOTEL', recordsTicket: false }, 'x', NOW).action_taken).toBe('BOOK_HOTEL');
    // A cancelling commit on a booking whose item waits for a person (a roster cancellation sent to review).
    expect(commitResolution({ type: 'HOTEL', recordsTicket: false, cancels: true }, 'x', NOW).action_taken).toBe(
      'CANCEL_BOOKING',
    );
    const { flight_options_url: _url, ...patch } = commitResolution(
      { type: 'FLIGHT', recordsTicket: false },
      'x',
      Date.parse(NOW),
    );
    const settled = item({ ...patch, disposition: 'AUTO_BOOKED', disposition_at: NOW });
    expect(reviewStatusOf(settled)).toBe('RESOLVED');
    expect(resolvedByPerson(settled)).toBe(true);
  });
});
