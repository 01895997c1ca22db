import {
  BOOKING_EVENT_STATUSES,
  keptForOldRoom,
  movedAwayRowKey,
  oldRoomRefusal,
  rowSettlement,
  settleBooking,
  settleMovedAwayAnswer,
  settleRowAnswer,
} from '../src';

describe('settleBooking: how a task end is recorded', () => {
  it('a NEEDS_REVIEW end: its reason is the review reason, the item is PENDING_REVIEW with the next step', () => {
    const s = settleBooking(
      { status: 'NEEDS_REVIEW', reason: 'no fare under the ceiling', recommended_action: 'BOOK_MANUALLY' },
      { actor: 'engine', actionId: 'a1', urgency: { task: 'P2', orItem: true } },
    );
    expect(s.patch).toEqual({ status: 'NEEDS_REVIEW', review_reason: 'no fare under the ceiling' });
    expect(s.history).toEqual({ reason: 'no fare under the ceiling', actor: 'engine' });
    expect(s.disposition).toEqual({
      action_id: 'a1',
      disposition: 'PENDING_REVIEW',
      message: 'no fare under the ceiling',
      recommended_action: 'BOOK_MANUALLY',
    });
    expect(s.events.statuses).toEqual(BOOKING_EVENT_STATUSES);
    expect(s.events.irop).toBeNull();
  });

  it('a review due at a deadline of its own stores it on the item, and the review rules give it as due_by', () => {
    const deadline = '2027-03-14T16:00:00.000Z';
    const s = settleBooking(
      { status: 'NEEDS_REVIEW', reason: 'past the deadline' },
      { actor: 'engine', actionId: 'a1', urgency: { task: 'P1', orItem: true }, reviewDeadline: deadline },
    );
    expect(s.disposition).toMatchObject({ disposition: 'PENDING_REVIEW', review_deadline: deadline });
    // As the write reads the item back: OPEN, due at the deadline, whatever the settings or its creation.
    const stored = {
      type: 'HOTEL',
      subtype: 'CANCEL',
      classification: 'LAYOVER_CANCELLED',
      priority: 'P3',
      disposition: 'PENDING_REVIEW',
      recommended_action: null,
      booking_id: 'b1',
      created_at: '2027-03-15T12:00:00.000Z',
      disposition_at: '2027-03-15T13:00:00.000Z',
      review_status: null,
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      assignee: 'desk@air.test',
      event_at: '2027-03-19T19:00:00.000Z',
      review_deadline: deadline,
      review_settings: { lead_time_minutes: 5, due_soon_minutes: 30, priority_targets_minutes: { P3: 9 } },
    };
    expect(s.review(stored)).toEqual({ review_status: 'OPEN', due_by: deadline });
    // Without one, the stored deadline (if any) is left as it is.
    const plain = settleBooking(
      { status: 'NEEDS_REVIEW', reason: 'x' },
      { actor: 'engine', actionId: 'a1', urgency: { task: 'P1', orItem: true } },
    );
    expect(plain.disposition).not.toHaveProperty('review_deadline');
  });

  it('a FAILED end records its last error and the automatic retry; a CANCELLED one is no longer pending', () => {
    const at = new Date('2026-12-01T10:00:00Z');
    expect(
      settleBooking(
        { status: 'FAILED', reason: 'supplier down' },
        { actor: 'engine', actionId: null, nextAttemptAt: at, urgency: { task: null, orItem: false } },
      ).patch,
    ).toEqual({ status: 'FAILED', review_reason: null, last_error: 'supplier down', next_attempt_at: at });
    const cancelled = settleBooking(
      { status: 'CANCELLED', reason: null },
      {
        actor: 'engine',
        actionId: 'a2',
        fields: { flight: { supplier_status: 'CANCELLED' } },
        urgency: { task: 'P3', orItem: false },
      },
    );
    expect(cancelled.patch).toEqual({
      flight: { supplier_status: 'CANCELLED' },
      status: 'CANCELLED',
      review_reason: null,
      pending_cancel: false,
    });
    expect(cancelled.disposition?.disposition).toBe('AUTO_CANCELLED');
  });

  it('urgency: the task’s priority, else the action item’s only when asked; irop.completed only with an irop_ref', () => {
    const byItem = settleBooking(
      { status: 'CONFIRMED', reason: null },
      { actor: 'engine', actionId: 'a', urgency: { task: undefined, orItem: true } },
    );
    expect([byItem.events.urgent('P1'), byItem.events.urgent('P2')]).toEqual([true, false]);
    const byTask = settleBooking(
      { status: 'CONFIRMED', reason: null },
      { actor: 'engine', actionId: 'a', urgency: { task: undefined, orItem: false } },
    );
    expect(byTask.events.urgent('P1')).toBe(false);
    const p1 = settleBooking(
      { status: 'CONFIRMED', reason: null },
      {
        actor: 'engine',
        actionId: 'a',
        urgency: { task: 'P1', orItem: true },
        irop: { airline_id: 'x', irop_ref: 'IROP-1' },
      },
    );
    expect(p1.events.urgent('P4')).toBe(true);
    expect(p1.events.irop).toEqual({ airline_id: 'x', irop_ref: 'IROP-1' });
    expect(
      settleBooking(
        { status: 'CONFIRMED', reason: null },
        {
          actor: 'engine',
          actionId: 'a',
          urgency: { task: 'P1', orItem: true },
          irop: { airline_id: 'x', irop_ref: null },
        },
      ).events.irop,
    ).toBeNull();
  });
});

describe('settleRowAnswer: a rooming list answer reaching its stay', () => {
  const at = new Date('2026-12-01T10:00:00Z');
  const waiting = {
    status: 'PENDING' as const,
    hotel: { rooming_list_id: 'L1', rooming_status: 'SENT' as const },
    action_id: 'a1',
    task_ref: 'BOOK-1',
    retry_count: 0,
  };
  /** The row the booking's current task put on list L1 (its task's ref and attempt). */
  const row = { list_id: 'L1', task_ref: 'BOOK-1#1' };

  it('the hotel’s confirmation confirms the booking and puts its number on the stay', () => {
    const s = settleRowAnswer(
      waiting,
      row,
      rowSettlement('NEW', { kind: 'CONFIRMED', confirmation_number: 'HX9' }),
      'hotel',
      at,
    )!;
    expect(s.patch).toEqual({
      status: 'CONFIRMED',
      review_reason: null,
      hotel: {
        rooming_list_id: 'L1',
        rooming_status: 'CONFIRMED',
        confirmation_number: 'HX9',
        hotel_confirmed_at: '2026-12-01T10:00:00.000Z',
      },
    });
    expect(s.disposition?.disposition).toBe('AUTO_BOOKED');
    expect(s.events.urgent('P1')).toBe(false);
  });

  describe('a CANCELLED row confirmed: the fee its cancellation cost or avoided, judged when the hotel was sent it', () => {
    const USD = (amount: number) => ({ amount, currency: 'USD' });
    /** In time when decided: the deadline 18:00 New York time on 8 March 2027 (23:00Z), a one-night fee avoided. */
    const cancelling = {
      ...waiting,
      task_ref: 'cancel-1',
      cancellation: {
        ref: 'cancel-1',
        action_id: 'a1',
        deadline: '2027-03-08T23:00:00.000Z',
        penalty: null,
        penalty_avoided: USD(150),
        message: "in time for the hotel's cancellation deadline (18:00 America/New_York on 2027-03-08): no fee",
        hold: null,
      },
    };
    const confirmed = rowSettlement('CANCELLED', { kind: 'CONFIRMED', confirmation_number: 'CX1' });

    it('sent by the deadline: the fee avoided', () => {
      const s = settleRowAnswer(
        cancelling,
        { list_id: 'L1', task_ref: 'cancel-1#1', sent_at: new Date('2027-03-08T22:00:00Z') },
        confirmed,
        'hotel',
        at,
      )!;
      expect(s.patch.hotel).toMatchObject({ cancellation_penalty_avoided: USD(150) });
      expect(s.patch.hotel).not.toHaveProperty('cancellation_penalty');
    });

    it('sent after the deadline (the mail server down, say): judged late, the fee recorded and the item says so', () => {
      const s = settleRowAnswer(
        cancelling,
        { list_id: 'L1', task_ref: 'cancel-1#1', sent_at: new Date('2027-03-08T23:00:01Z') },
        confirmed,
        'hotel',
        at,
      )!;
      expect(s.patch.hotel).toMatchObject({ cancellation_penalty: USD(150) });
      expect(s.patch.hotel).not.toHaveProperty('cancellation_penalty_avoided');
      expect(s.disposition?.message).toContain(
        'sent to the hotel at 2027-03-08T23:00:01.000Z, after its cancellation deadline (2027-03-08T23:00:00.000Z): late cancellation fee 150.00 USD recorded on the booking',
      );
    });

    it('rejected, or unanswered by the list deadline: a person’s, due at the cancellation deadline (after it the fee is owed)', () => {
      const row = { list_id: 'L1', task_ref: 'cancel-1#1', marking: 'CANCELLED' as const };
      for (const answer of [
        { kind: 'REJECTED', reason: 'by telephone only' },
        { kind: 'EXPIRED', deadline: Date.parse('2027-03-08T20:00:00Z') },
      ] as const) {
        const s = settleRowAnswer(cancelling, row, rowSettlement('CANCELLED', answer), 'hotel', at)!;
        expect(s.patch.status).toBe('NEEDS_REVIEW');
        expect(s.disposition).toMatchObject({ review_deadline: '2027-03-08T23:00:00.000Z' });
      }
      // A NEW row the hotel turns down is no cancellation: the review rules date it.
      const booking = settleRowAnswer(
        { ...waiting, cancellation: null },
        { list_id: 'L1', task_ref: 'BOOK-1#1', marking: 'NEW' },
        rowSettlement('NEW', { kind: 'REJECTED', reason: 'full' }),
        'hotel',
        at,
      )!;
      expect(booking.disposition).not.toHaveProperty('review_deadline');
    });
  });

  describe('the CANCELLED row of a stay moved away from the hotel: the move’s fee, or a person told; the booking’s status kept', () => {
    const USD = (amount: number) => ({ amount, currency: 'USD' });
    /** Waiting for its new hotel (list L1); the move stored the old room's cancellation, in time when decided. */
    const moved = {
      ...waiting,
      task_ref: 'AMEND-a1',
      cancellation: {
        ref: 'AMEND-a1',
        action_id: 'a1',
        deadline: '2027-03-08T23:00:00.000Z',
        penalty: null,
        penalty_avoided: USD(150),
        message:
          "the room at JFK cancelled in time for the hotel's cancellation deadline (18:00 America/New_York on 2027-03-08): no fee",
        hold: null,
      },
    };
    const awayRow = (sentAt: string) => ({ task_ref: movedAwayRowKey('AMEND-a1#1'), sent_at: new Date(sentAt) });
    const confirmed = rowSettlement('CANCELLED', { kind: 'CONFIRMED', confirmation_number: 'CX1' });

    it('sent by the deadline: the fee avoided, in the booking’s history', () => {
      const s = settleMovedAwayAnswer(moved, awayRow('2027-03-08T22:00:00Z'), confirmed, 'Crew Inn JFK', 'hotel')!;
      expect(s.hotel).toMatchObject({ rooming_list_id: 'L1', cancellation_penalty_avoided: USD(150) });
      expect(s.history).toEqual({
        status: 'PENDING',
        actor: 'hotel',
        reason: `Crew Inn JFK confirmed the cancellation of the stay moved away from it (CX1); ${moved.cancellation.message}`,
      });
    });

    it('sent after the deadline: the late fee', () => {
      const s = settleMovedAwayAnswer(moved, awayRow('2027-03-08T23:00:01Z'), confirmed, 'Crew Inn JFK', 'hotel')!;
      expect(s.hotel).toMatchObject({ cancellation_penalty: USD(150) });
      expect(s.hotel).not.toHaveProperty('cancellation_penalty_avoided');
      expect(s.history.reason).toContain(
        'sent to Crew Inn JFK at 2027-03-08T23:00:01.000Z, after its cancellation deadline',
      );
    });

    it('confirmed: the stay at the old hotel, cancelled, for its invoice (under the number it confirmed it by); none refused', () => {
      const row = {
        ...awayRow('2027-03-08T23:00:01Z'),
        property_id: 'CREWINN-JFK',
        checkin_time_local: '2027-03-12T15:00:00-04:00',
        checkout_time_local: '2027-03-13T11:00:00-04:00',
        stay_confirmation_number: 'JFK-1',
      };
      const ids = { ...moved, booking_id: 'b1', airline_id: 'air1' };
      expect(settleMovedAwayAnswer(ids, row, confirmed, 'Crew Inn JFK', 'hotel')!.moved_stay).toEqual({
        booking_id: 'b1',
        move_ref: 'AMEND-a1',
        airline_id: 'air1',
        property_id: 'CREWINN-JFK',
        confirmation_number: 'JFK-1',
        check_in_date: '2027-03-12',
        check_out_date: '2027-03-13',
        contract_id: null,
        contracted_rate: null,
        cancellation_penalty: USD(150),
      });
      // Without the number it confirmed the stay under: the cancellation's; in time: no fee.
      const inTime = { ...row, sent_at: new Date('2027-03-08T22:00:00Z'), stay_confirmation_number: null };
      expect(settleMovedAwayAnswer(ids, inTime, confirmed, 'Crew Inn JFK', 'hotel')!.moved_stay).toMatchObject({
        confirmation_number: 'CX1',
        cancellation_penalty: null,
      });
      // A refusal cancelled nothing there; a row naming no hotel records nothing.
      const rejected = rowSettlement('CANCELLED', { kind: 'REJECTED', reason: 'by telephone only' });
      expect(settleMovedAwayAnswer(ids, row, rejected, 'Crew Inn JFK', 'hotel')).not.toHaveProperty('moved_stay');
      expect(
        settleMovedAwayAnswer(ids, awayRow('2027-03-08T22:00:00Z'), confirmed, 'Crew Inn JFK', 'hotel'),
      ).not.toHaveProperty('moved_stay');
    });

    it('rejected: the booking unchanged but for its history, the move marked refused, its item a person’s due at the deadline', () => {
      const rejected = rowSettlement('CANCELLED', { kind: 'REJECTED', reason: 'by telephone only' });
      const s = settleMovedAwayAnswer(moved, awayRow('2027-03-08T22:00:00Z'), rejected, 'Crew Inn JFK', 'hotel')!;
      const refused =
        'Crew Inn JFK, which the stay moved away from, rejected its cancellation (by telephone only) and still holds the room: a person must cancel it with the hotel';
      expect(s.hotel).toEqual(moved.hotel);
      expect(s.history).toEqual({ status: 'PENDING', reason: refused, actor: 'hotel' });
      expect(s.cancellation).toEqual({ ...moved.cancellation, old_room_refused: refused });
      expect(s.review).toMatchObject({
        action_id: 'a1',
        message: refused,
        review_deadline: '2027-03-08T23:00:00.000Z',
      });
      expect(oldRoomRefusal(s.cancellation, 'AMEND-a1')).toBe(refused);
      expect(oldRoomRefusal(s.cancellation, 'AMEND-b2')).toBeNull();
    });

    it('not answered by the list’s deadline: the same, saying so', () => {
      const expired = rowSettlement('CANCELLED', { kind: 'EXPIRED', deadline: Date.parse('2027-03-09T22:00:00Z') });
      const s = settleMovedAwayAnswer(moved, awayRow('2027-03-08T22:00:00Z'), expired, 'Crew Inn JFK', 'engine')!;
      expect(s.review!.message).toBe(
        'Crew Inn JFK, which the stay moved away from, did not answer its cancellation (the hotel did not answer the rooming list by 2027-03-09T22:00:00.000Z): it may still hold the room; a person must cancel it with the hotel',
      );
      // A booking gone on to another task: its own item is told, dated by the review rules; nothing is marked.
      const other = { ...moved, action_id: 'b2', cancellation: { ...moved.cancellation, ref: 'AMEND-b2' } };
      const s2 = settleMovedAwayAnswer(other, awayRow('2027-03-08T22:00:00Z'), expired, 'Crew Inn JFK', 'engine')!;
      expect(s2.cancellation).toBeUndefined();
      expect(s2.review).toMatchObject({ action_id: 'b2' });
      expect(s2.review).not.toHaveProperty('review_deadline');
    });

    it('the old room refused, the new hotel’s confirmation settles the booking and leaves the item with the person; a rejection says both', () => {
      const refusedMove = {
        ...moved,
        cancellation: { ...moved.cancellation, old_room_refused: 'Crew Inn JFK … still holds the room' },
      };
      const yes = settleRowAnswer(
        refusedMove,
        { list_id: 'L1', task_ref: 'AMEND-a1#1' },
        rowSettlement('NEW', { kind: 'CONFIRMED', confirmation_number: 'LHR-1' }),
        'hotel',
        at,
      )!;
      expect(yes.patch.status).toBe('CONFIRMED');
      expect(yes.disposition).toBeNull();
      const no = settleRowAnswer(
        refusedMove,
        { list_id: 'L1', task_ref: 'AMEND-a1#1' },
        rowSettlement('NEW', { kind: 'REJECTED', reason: 'full' }),
        'hotel',
        at,
      )!;
      expect(no.disposition).toMatchObject({
        disposition: 'PENDING_REVIEW',
        message: 'the hotel rejected the rooming list row: full; Crew Inn JFK … still holds the room',
      });
      expect(keptForOldRoom({ status: 'MODIFIED', reason: null }, null)).toEqual({
        status: 'MODIFIED',
        reason: null,
        leaveItem: false,
      });
    });

    it('a booking that stores another task’s cancellation records nothing; a stay’s own row is not such a row', () => {
      const other = { ...moved, cancellation: { ...moved.cancellation, ref: 'AMEND-b2' } };
      const s = settleMovedAwayAnswer(other, awayRow('2027-03-08T22:00:00Z'), confirmed, 'Crew Inn JFK', 'hotel')!;
      expect(s.hotel).not.toHaveProperty('cancellation_penalty_avoided');
      expect(settleMovedAwayAnswer(moved, { task_ref: 'AMEND-a1#1' }, confirmed, 'Crew Inn JFK', 'hotel')).toBeNull();
    });
  });

  it('does not reach a booking no longer waiting for that list', () => {
    const expired = rowSettlement('NEW', { kind: 'EXPIRED', deadline: at.getTime() });
    expect(settleRowAnswer(waiting, { ...row, list_id: 'L2' }, expired, 'engine', at)).toBeNull();
    expect(settleRowAnswer({ ...waiting, status: 'CONFIRMED' }, row, expired, 'engine', at)).toBeNull();
  });

  it('does not reach a booking whose change started after the row was placed (the change is still to be sent)', () => {
    const confirmed = rowSettlement('NEW', { kind: 'CONFIRMED', confirmation_number: 'HX9' });
    const expired = rowSettlement('NEW', { kind: 'EXPIRED', deadline: at.getTime() });
    // A DELETE (or a roster change) started a new task: the booking still names list L1, but its row is the old task's.
    const changing = { ...waiting, task_ref: 'CANCEL-2' };
    expect(settleRowAnswer(changing, row, confirmed, 'hotel', at)).toBeNull();
    expect(settleRowAnswer(changing, row, expired, 'engine', at)).toBeNull();
    // A person's retry is a new attempt of the same task: the earlier attempt's row no longer counts either.
    expect(settleRowAnswer({ ...waiting, retry_count: 1 }, row, confirmed, 'hotel', at)).toBeNull();
    // The row of the current attempt does.
    expect(
      settleRowAnswer({ ...waiting, retry_count: 1 }, { ...row, task_ref: 'BOOK-1#2' }, confirmed, 'hotel', at),
    ).not.toBeNull();
  });
});
