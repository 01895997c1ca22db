import {
  beingCancelled,
  cancelledBeforeRecord,
  clearsBeingCancelled,
  madeFields,
  mayKeepFound,
  movedAwayStay,
  namesLiveReservation,
  supersededCancelRecord,
  supersededReservation,
  supersededTaskReference,
  taskOrderReference,
  type SupplierBlock,
} from '../src';

const ID = 'b-1';
const BOOK = { operation: 'BOOK' as const, identity: 'BOOK-a1' };
/** The block the booking task read: the stay the roster asked for, no room yet. */
const started: SupplierBlock = { property_id: 'acc_1', station: 'JFK', check_in_date: '2027-03-10' };
/** What its supplier call came back with. */
const made: SupplierBlock = {
  ...started,
  supplier: 'DUFFEL',
  supplier_ref: 'bok_1',
  supplier_booking_id: 'bok_1',
  supplier_status: 'CONFIRMED',
};

const judge = (
  current: { status: string; operation?: 'BOOK' | 'AMEND' | 'CANCEL'; identity?: string; block?: SupplierBlock | null },
  o: { made?: SupplierBlock | null; started?: SupplierBlock | null; type?: 'HOTEL' | 'FLIGHT'; rerun?: boolean } = {},
) =>
  supersededReservation({
    type: o.type ?? 'HOTEL',
    booking_id: ID,
    task: BOOK,
    started: o.started === undefined ? started : o.started,
    rerun: o.rerun ?? false,
    made: o.made === undefined ? made : o.made,
    current: {
      status: current.status as never,
      task: { operation: current.operation ?? 'CANCEL', identity: current.identity ?? 'CANCEL-c1' },
      block: current.block === undefined ? started : current.block,
    },
  });

describe('supersededReservation: the room or ticket a task made after a later change replaced it', () => {
  it('nothing live made: nothing to do', () => {
    expect(judge({ status: 'CANCELLED' }, { made: null })).toEqual({ kind: 'NONE' });
    expect(judge({ status: 'CANCELLED' }, { made: { ...made, supplier_status: 'CANCELLED' } })).toEqual({
      kind: 'NONE',
    });
    expect(judge({ status: 'CANCELLED' }, { made: started })).toEqual({ kind: 'NONE' });
  });

  it('the booking names it already (its own cancellation found and cancelled it): nothing to do', () => {
    expect(judge({ status: 'CANCELLED', block: { ...made, supplier_status: 'CANCELLED' } })).toEqual({ kind: 'NONE' });
  });

  it('a cancellation that found nothing (or has not run): cancelled at the supplier and recorded on the booking', () => {
    expect(judge({ status: 'CANCELLED' })).toEqual({ kind: 'CANCEL', record: true });
    expect(judge({ status: 'PENDING' })).toEqual({ kind: 'CANCEL', record: true });
    expect(judge({ status: 'FAILED' })).toEqual({ kind: 'CANCEL', record: true });
  });

  it('the booking waits for a person, naming what the task started from: the person gets it (never cancelled)', () => {
    // The roster's review of a change keeps the task's ref on the booking: still handed over.
    expect(judge({ status: 'NEEDS_REVIEW', operation: 'BOOK', identity: BOOK.identity })).toEqual({
      kind: 'HAND_OVER',
      block: made,
    });
    // A cancellation a person decides (execution off): they cancel the room it made.
    expect(judge({ status: 'NEEDS_REVIEW' }).kind).toBe('HAND_OVER');
  });

  it('handed over, what the roster changed on the booking meanwhile stays; the supplier’s fields come from the answer', () => {
    const current = { ...started, check_in_date: '2027-03-11', note: 'moved' };
    const handed = judge({ status: 'NEEDS_REVIEW', block: current });
    expect(handed).toEqual({
      kind: 'HAND_OVER',
      block: {
        ...current,
        supplier: 'DUFFEL',
        supplier_ref: 'bok_1',
        supplier_booking_id: 'bok_1',
        supplier_status: 'CONFIRMED',
      },
    });
  });

  it('a booking under review that holds a room of its own: the task’s room is cancelled, never kept beside it', () => {
    const own = { ...started, supplier: 'SANDBOX', supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' };
    expect(judge({ status: 'NEEDS_REVIEW', block: own })).toEqual({ kind: 'CANCEL', record: false });
  });

  it('the same task retried or running again under the same reference gets it back: nothing to do', () => {
    for (const status of ['PENDING', 'FAILED'])
      expect(judge({ status, operation: 'BOOK', identity: 'BOOK-a2' })).toEqual({ kind: 'NONE' });
  });

  it('a person’s booking choice recorded the task’s reference: it looks the room up first; once under its own, not its', () => {
    const person = { operation: 'BOOK' as const, identity: 'BOOK-p' };
    const judgeBy = (order_reference: string | null) =>
      supersededReservation({
        type: 'HOTEL',
        booking_id: ID,
        task: BOOK,
        order_reference: null,
        started,
        rerun: false,
        made,
        current: { status: 'PENDING', task: person, block: started, order_reference },
      });
    // bk-b-1 recorded with the choice: the choice's task looks it up and keeps or cancels the room, so it waits.
    expect(judgeBy('bk-b-1')).toEqual({ kind: 'WAIT' });
    // The choice's own reference recorded once it looked bk-b-1 up and found nothing: cancelled.
    expect(judgeBy('bk-b-1-BOOK-p')).toEqual({ kind: 'CANCEL', record: false });
    // Nothing recorded (a retry of the same booking): under bk-b-1 again, it gets the room back.
    expect(judgeBy(null)).toEqual({ kind: 'NONE' });
  });

  describe('a task that recorded the room’s reference (a person’s choice, the airline’s commit) looks it up: WAIT', () => {
    const person = { operation: 'BOOK' as const, identity: 'BOOK-p' };
    const kept = { ...made, supplier_status: 'CONFIRMED' };
    const judgeNow = (
      current: { status: string; block?: SupplierBlock | null; order_reference?: string | null; task?: typeof person },
      o: { made_under?: string | null; order_reference?: string | null } = {},
    ) =>
      supersededReservation({
        type: 'HOTEL',
        booking_id: ID,
        task: BOOK,
        order_reference: o.order_reference ?? null,
        ...(o.made_under !== undefined ? { made_under: o.made_under } : {}),
        started,
        rerun: false,
        made,
        current: {
          status: current.status as never,
          task: current.task ?? person,
          block: current.block === undefined ? started : current.block,
          order_reference: current.order_reference === undefined ? 'bk-b-1' : current.order_reference,
        },
      });

    it('while that task runs (PENDING) and the booking names nothing live: the room is that task’s to decide', () => {
      expect(judgeNow({ status: 'PENDING' })).toEqual({ kind: 'WAIT' });
      expect(judgeNow({ status: 'PENDING', block: null })).toEqual({ kind: 'WAIT' });
      // A change that looks it up too (an amendment with no room to amend): the same.
      expect(judgeNow({ status: 'PENDING', task: { operation: 'AMEND', identity: 'AMEND-x' } as never })).toEqual({
        kind: 'WAIT',
      });
      // The booking names a cancelled room (not one it holds): the task still looks the reference up.
      expect(
        judgeNow({ status: 'PENDING', block: { ...started, supplier_ref: 'old', supplier_status: 'CANCELLED' } }),
      ).toEqual({ kind: 'WAIT' });
    });

    it('that task kept it (the booking names it) or cancelled it itself (recorded on the block): nothing to do', () => {
      expect(judgeNow({ status: 'CONFIRMED', block: kept })).toEqual({ kind: 'NONE' });
      expect(judgeNow({ status: 'PENDING', block: { ...made, supplier_status: 'CANCELLED' } })).toEqual({
        kind: 'NONE',
      });
    });

    it('that task found nothing and recorded its own reference (it orders anew): cancelled', () => {
      expect(judgeNow({ status: 'PENDING', order_reference: 'bk-b-1-BOOK-p' })).toEqual({
        kind: 'CANCEL',
        record: false,
      });
      // …and ended on its own room.
      const own = { ...started, supplier: 'DUFFEL', supplier_ref: 'bok_2', supplier_status: 'CONFIRMED' };
      expect(judgeNow({ status: 'CONFIRMED', block: own, order_reference: 'bk-b-1-BOOK-p' })).toEqual({
        kind: 'CANCEL',
        record: false,
      });
    });

    it('that task ended FAILED before recording another reference: its retry (or the next task) looks it up, so NONE', () => {
      expect(judgeNow({ status: 'FAILED' })).toEqual({ kind: 'NONE' });
    });

    it('the booking names a live room of its own: the task replaces that one, never looking the reference up', () => {
      const own = { ...started, supplier: 'SANDBOX', supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' };
      expect(judgeNow({ status: 'PENDING', block: own })).toEqual({ kind: 'CANCEL', record: false });
      expect(judgeNow({ status: 'FAILED', block: own })).toEqual({ kind: 'CANCEL', record: false });
    });

    it('a cancellation, or a booking in review, under that reference: the earlier rows', () => {
      expect(judgeNow({ status: 'PENDING', task: { operation: 'CANCEL', identity: 'CANCEL-c1' } as never })).toEqual({
        kind: 'CANCEL',
        record: true,
      });
      expect(judgeNow({ status: 'NEEDS_REVIEW' }).kind).toBe('HAND_OVER');
    });

    it('the room found under its reference after the answer was lost (a rerun): judged by that reference', () => {
      // Rerun, the booking as it is now records bk-b-1: the task's own would be bk-b-1-BOOK-a1, but it was made under bk-b-1.
      expect(judgeNow({ status: 'PENDING' }, { order_reference: 'bk-b-1', made_under: 'bk-b-1' })).toEqual({
        kind: 'WAIT',
      });
      expect(judgeNow({ status: 'PENDING' }, { order_reference: 'bk-b-1' })).toEqual({ kind: 'CANCEL', record: false });
    });
  });

  it('another task running (an amendment under its own reference): cancelled, its block left to that task', () => {
    expect(judge({ status: 'PENDING', operation: 'AMEND', identity: 'AMEND-x' })).toEqual({
      kind: 'CANCEL',
      record: false,
    });
  });

  it('a ticket: the same rules', () => {
    const ticket = { supplier: 'SANDBOX', supplier_ref: 'FO-1', supplier_status: 'CONFIRMED' };
    expect(judge({ status: 'CANCELLED', block: null }, { type: 'FLIGHT', started: null, made: ticket })).toEqual({
      kind: 'CANCEL',
      record: true,
    });
    expect(judge({ status: 'NEEDS_REVIEW', block: null }, { type: 'FLIGHT', started: null, made: ticket }).kind).toBe(
      'HAND_OVER',
    );
  });
});

describe('supersededReservation on a rerun: `started` is the booking as it is now, not as the task began', () => {
  /** A rerun reads the booking now and passes it as `started`: the block judged and the block started from are one. */
  const rerun = (
    current: {
      status: string;
      operation?: 'BOOK' | 'AMEND' | 'CANCEL';
      identity?: string;
      block: SupplierBlock | null;
    },
    o: { made?: SupplierBlock; type?: 'HOTEL' | 'FLIGHT' } = {},
  ) => judge(current, { ...o, started: current.block, rerun: true });
  const own = { ...started, supplier: 'SANDBOX', supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' };

  it('a booking under review holding a live room of its own: the task’s room is cancelled, never written over it', () => {
    // Known, the task started from nothing and the booking holds HR-1 now: CANCEL. On a rerun HR-1 is in `started`
    // too, so "naming what the task started from" would hold and HR-1 would be left on no booking.
    expect(rerun({ status: 'NEEDS_REVIEW', operation: 'BOOK', identity: BOOK.identity, block: own })).toEqual({
      kind: 'CANCEL',
      record: false,
    });
    expect(rerun({ status: 'NEEDS_REVIEW', block: own })).toEqual({ kind: 'CANCEL', record: false });
  });

  it('a ticket: the same', () => {
    const ticket = { supplier: 'SANDBOX', supplier_ref: 'FO-1', supplier_status: 'CONFIRMED' };
    const held = { supplier: 'SANDBOX', supplier_ref: 'FO-0', supplier_status: 'CONFIRMED' };
    expect(rerun({ status: 'NEEDS_REVIEW', block: held }, { type: 'FLIGHT', made: ticket })).toEqual({
      kind: 'CANCEL',
      record: false,
    });
    expect(rerun({ status: 'NEEDS_REVIEW', block: null }, { type: 'FLIGHT', made: ticket })).toEqual({
      kind: 'HAND_OVER',
      block: ticket,
    });
  });

  it('a booking under review naming no live room (what a task overtaken before making anything started from): handed over', () => {
    expect(rerun({ status: 'NEEDS_REVIEW', operation: 'BOOK', identity: BOOK.identity, block: started })).toEqual({
      kind: 'HAND_OVER',
      block: made,
    });
    expect(rerun({ status: 'NEEDS_REVIEW', block: null })).toEqual({ kind: 'HAND_OVER', block: made });
    // A room it names cancelled (the task replaced it before ordering, or a person cancelled it): nothing live to lose.
    const gone = { ...own, supplier_status: 'CANCELLED' };
    expect(rerun({ status: 'NEEDS_REVIEW', block: gone })).toEqual({
      kind: 'HAND_OVER',
      block: {
        ...gone,
        supplier: 'DUFFEL',
        supplier_ref: 'bok_1',
        supplier_booking_id: 'bok_1',
        supplier_status: 'CONFIRMED',
      },
    });
  });

  it('the other rows judge the booking now alone, as they do when the task’s start is known', () => {
    expect(rerun({ status: 'CANCELLED', block: { ...made, supplier_status: 'CANCELLED' } })).toEqual({ kind: 'NONE' });
    expect(rerun({ status: 'CANCELLED', block: started })).toEqual({ kind: 'CANCEL', record: true });
    expect(rerun({ status: 'CANCELLED', block: own })).toEqual({ kind: 'CANCEL', record: false });
    expect(rerun({ status: 'FAILED', operation: 'BOOK', identity: 'BOOK-a2', block: started })).toEqual({
      kind: 'NONE',
    });
    expect(rerun({ status: 'PENDING', operation: 'AMEND', identity: 'AMEND-x', block: own })).toEqual({
      kind: 'CANCEL',
      record: false,
    });
  });
});

describe('taskOrderReference: where a task orders', () => {
  it('a booking under the booking’s own reference until one is recorded, then under its own; a change under its own', () => {
    const b = { booking_id: ID, order_reference: null };
    expect(taskOrderReference('HOTEL', BOOK, b)).toBe('bk-b-1');
    expect(taskOrderReference('HOTEL', BOOK, { ...b, order_reference: 'bk-b-1' })).toBe('bk-b-1-BOOK-a1');
    expect(taskOrderReference('FLIGHT', { operation: 'AMEND', identity: 'AMEND-x' }, b)).toBe('bk-b-1-AMEND-x');
    expect(taskOrderReference('HOTEL', { operation: 'CANCEL', identity: 'CANCEL-c' }, b)).toBeNull();
  });
});

describe('supersededTaskReference: where a lost answer is looked for', () => {
  it('a booking under the booking’s own reference; a change’s new room or ticket under the task; a cancellation makes none', () => {
    expect(supersededTaskReference('HOTEL', 'BOOK', ID, 'BOOK-a1')).toBe('bk-b-1');
    expect(supersededTaskReference('FLIGHT', 'BOOK', ID, 'BOOK-a1')).toBe('bk-b-1');
    expect(supersededTaskReference('HOTEL', 'AMEND', ID, 'AMEND-x')).toBe('bk-b-1-AMEND-x');
    expect(supersededTaskReference('FLIGHT', 'AMEND', ID, 'AMEND-x')).toBe('bk-b-1-AMEND-x');
    expect(supersededTaskReference('HOTEL', 'CANCEL', ID, 'CANCEL-c')).toBeNull();
  });
});

describe('namesLiveReservation and madeFields', () => {
  it('a reference not cancelled or refused is live', () => {
    expect(namesLiveReservation({ supplier_ref: 'X', supplier_status: 'CONFIRMED' })).toBe(true);
    expect(namesLiveReservation({ supplier_ref: 'X', supplier_status: 'CANCELLED' })).toBe(false);
    expect(namesLiveReservation({ supplier_ref: 'X', supplier_status: 'REFUSED' })).toBe(false);
    expect(namesLiveReservation({ supplier_status: 'CONFIRMED' })).toBe(false);
    expect(namesLiveReservation(null)).toBe(false);
  });

  it('only what the answer changed goes over the current block', () => {
    expect(madeFields({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 }, { a: 9, d: 5 })).toEqual({ a: 9, b: 3, c: 4, d: 5 });
    expect(madeFields(null, { a: 1 }, null)).toEqual({ a: 1 });
  });
});

describe('supersededCancelRecord: what the booking records once the room or ticket’s cancellation was tried', () => {
  /** The roster dropped the layover: its cancellation found nothing and ended CANCELLED, its item AUTO_CANCELLED. */
  const cancelledBooking = {
    status: 'CANCELLED' as const,
    block: started,
    action_id: 'item-cx',
    task_ref: 'CANCEL-c1',
    cancellation: {
      ref: 'CANCEL-c1',
      action_id: 'item-cx',
      deadline: '2027-03-06T23:00:00.000Z',
      penalty: null,
      penalty_avoided: { amount: 189, currency: 'USD' },
      message: 'cancelled in time: one night (189.00 USD) avoided',
      hold: null,
    },
  };
  const refused = { cancelled: false as const, reason: 'supplier refused (CANCEL_REFUSED): not cancellable' };
  type RecordInput = Parameters<typeof supersededCancelRecord>[0];
  /** What the booking records for the hotel task above (it started from `started` and made `made`). */
  const recordFor = (plan: RecordInput['plan'], current: RecordInput['current'], attempt: RecordInput['attempt']) =>
    supersededCancelRecord({ type: 'HOTEL', plan, started, made, current, attempt });

  it('refused, the booking’s cancellation having found nothing: the booking holds the live room and waits for a person', () => {
    const r = recordFor({ kind: 'CANCEL', record: true }, cancelledBooking, refused);
    expect(r.kind).toBe('SETTLE');
    if (r.kind !== 'SETTLE') return;
    const s = r.settlement;
    // The room on the block, live: CANCEL_BOOKING on the item cancels it there.
    expect(s.patch).toMatchObject({ status: 'NEEDS_REVIEW', hotel: made });
    expect(s.patch.review_reason).toContain('bok_1');
    expect(s.patch.review_reason).toContain('DUFFEL');
    expect(s.patch.review_reason).toContain('cancel it there');
    expect(s.patch.review_reason).toContain('CANCEL_REFUSED');
    // The cancellation's item goes to the review queue, due by the hotel's deadline as a refused cancellation is.
    expect(s.disposition).toEqual({
      action_id: 'item-cx',
      disposition: 'PENDING_REVIEW',
      message: s.patch.review_reason,
      review_deadline: '2027-03-06T23:00:00.000Z',
    });
    expect(s.history).toEqual({ reason: s.patch.review_reason, actor: 'engine' });
  });

  it('refused while the booking waits for a person that started from nothing: it holds the room (as a hand-over)', () => {
    const r = recordFor(
      { kind: 'HAND_OVER', block: made },
      { ...cancelledBooking, status: 'NEEDS_REVIEW', task_ref: 'BOOK-a1', cancellation: null },
      refused,
    );
    expect(r.kind === 'SETTLE' && r.settlement.patch).toMatchObject({ status: 'NEEDS_REVIEW', hotel: made });
  });

  it('refused, the booking holding a room of its own or running another task: its history says so, nothing else', () => {
    const own = { ...started, supplier: 'SANDBOX', supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' };
    const r = recordFor(
      { kind: 'CANCEL', record: false },
      { ...cancelledBooking, status: 'CONFIRMED', block: own, task_ref: 'BOOK-a2', cancellation: null },
      refused,
    );
    expect(r).toEqual({ kind: 'NOTE', block: null, reason: expect.stringContaining('cancel it there') });
  });

  it('cancelled after the booking’s cancellation found nothing: the item says what was cancelled and the fee, not "nothing"', () => {
    const r = recordFor({ kind: 'CANCEL', record: true }, cancelledBooking, {
      cancelled: true,
      block: { ...made, supplier_status: 'CANCELLED' },
      reason: null,
      at: new Date('2027-03-01T00:00:00Z'),
    });
    expect(r.kind).toBe('SETTLE');
    if (r.kind !== 'SETTLE') return;
    const s = r.settlement;
    const message =
      'the room bok_1 (DUFFEL), made by an earlier task after a later change had replaced it, was cancelled at the ' +
      'supplier; cancelled in time: one night (189.00 USD) avoided';
    expect(s.patch).toMatchObject({
      status: 'CANCELLED',
      hotel: {
        ...made,
        supplier_status: 'CANCELLED',
        cancellation_penalty_avoided: { amount: 189, currency: 'USD' },
      },
    });
    expect(s.history).toEqual({ reason: message, actor: 'engine' });
    expect(s.disposition).toEqual({ action_id: 'item-cx', disposition: 'AUTO_CANCELLED', message });
    // The booking was CANCELLED already (booking.cancelled was sent then): no second event.
    expect(s.events.statuses).toEqual([]);
  });

  it('cancelled while the booking’s cancellation has not run: recorded on the block, that task’s end settles the item', () => {
    const r = recordFor(
      { kind: 'CANCEL', record: true },
      { ...cancelledBooking, status: 'PENDING' },
      { cancelled: true, block: { ...made, supplier_status: 'CANCELLED' }, reason: null, at: null },
    );
    expect(r).toMatchObject({ kind: 'NOTE', block: { supplier_ref: 'bok_1', supplier_status: 'CANCELLED' } });
  });

  it('a task that may keep it started while the cancellation was out (WAIT): its history says so, nothing else', () => {
    const pending = { ...cancelledBooking, status: 'PENDING' as const, task_ref: 'BOOK-p', cancellation: null };
    expect(recordFor({ kind: 'WAIT' }, pending, refused)).toEqual({
      kind: 'NOTE',
      block: null,
      reason: expect.stringContaining('cancel it there'),
    });
    expect(
      recordFor({ kind: 'WAIT' }, pending, {
        cancelled: true,
        block: { ...made, supplier_status: 'CANCELLED' },
        reason: null,
        at: null,
      }),
    ).toEqual({ kind: 'NOTE', block: null, reason: expect.stringContaining('was cancelled at the supplier') });
  });

  it('nothing to do when the booking’s own task dealt with it meanwhile', () => {
    expect(recordFor({ kind: 'NONE' }, cancelledBooking, refused)).toEqual({ kind: 'NONE' });
  });
});

describe('beingCancelled: a superseded task’s room marked on the booking while its cancellation is out', () => {
  const mark = beingCancelled(made, BOOK);

  it('names the room, its supplier and the task cancelling it (the sandbox when the block names no supplier)', () => {
    expect(mark).toEqual({ supplier: 'DUFFEL', supplier_ref: 'bok_1', task: 'BOOK-a1' });
    const ticket = { supplier_ref: 'FO-1', supplier_status: 'CONFIRMED' };
    expect(beingCancelled(ticket, BOOK)).toEqual({ supplier: 'SANDBOX', supplier_ref: 'FO-1', task: 'BOOK-a1' });
  });

  it('a task that finds that room under an earlier reference does not keep it; any other room it may', () => {
    expect(mayKeepFound({ supplier: 'DUFFEL', supplier_ref: 'bok_1' }, mark)).toBe(false);
    expect(mayKeepFound({ supplier: 'DUFFEL', supplier_ref: 'bok_2' }, mark)).toBe(true);
    // The same reference at another supplier is another room.
    expect(mayKeepFound({ supplier: 'SANDBOX', supplier_ref: 'bok_1' }, mark)).toBe(true);
    expect(mayKeepFound({ supplier: 'DUFFEL', supplier_ref: 'bok_1' }, null)).toBe(true);
    expect(mayKeepFound({ supplier_ref: 'HR-1' }, { supplier: 'SANDBOX', supplier_ref: 'HR-1', task: 't' })).toBe(
      false,
    );
  });

  it('cleared by the record of that room’s cancellation only, not of another one', () => {
    expect(clearsBeingCancelled(mark, made)).toBe(true);
    expect(clearsBeingCancelled(mark, { ...made, supplier_ref: 'bok_2' })).toBe(false);
    expect(clearsBeingCancelled(null, made)).toBe(false);
  });
});

describe('cancelledBeforeRecord: an old room or ticket cancelled by a task superseded before it could record it', () => {
  /** The room the booking held when the task began, live. */
  const held: SupplierBlock = { ...made, supplier: 'SANDBOX', supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' };
  /** What the task would have recorded: the room as the supplier's cancellation answered. */
  const cancelled: SupplierBlock = { ...held, supplier_status: 'CANCELLED' };
  const REASON =
    'the room HR-1 (SANDBOX) was cancelled at the supplier by an earlier task that a later change replaced ' +
    'before it could record it: the booking no longer holds it';
  const NIGHT = { amount: 180, currency: 'USD' };
  /** Its cancellation, made after the deadline of the task's terms. */
  const late = {
    fields: { cancellation_penalty: NIGHT },
    reason: 'late cancellation fee 180.00 USD recorded on the booking',
  };
  /** A move's old room at acc_1 (the block the task began from named it; a move names the new hotel). */
  const moved = movedAwayStay(
    { booking_id: ID, airline_id: 'a-1' },
    'AMEND-m1',
    { property_id: 'acc_1', check_in_date: '2027-03-10', check_out_date: '2027-03-11', confirmation_number: 'HR-1' },
    late.fields,
  );
  /** The booking as the move's diff left it: the new hotel named, the old room still on the block. */
  const movedOn: SupplierBlock = { ...held, property_id: 'acc_2', station: 'LHR' };

  it('the booking still names that room live: recorded CANCELLED on its block, nothing else changed', () => {
    // A later roster's review moved the stay meanwhile: its dates stay as they are.
    const current = { ...held, check_in_date: '2027-03-11', review_note: 'kept' };
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current })).toEqual({
      note: { block: { ...current, supplier_status: 'CANCELLED' }, reason: REASON },
      moved: null,
    });
  });

  it('with the fee its cancellation cost under the task’s terms, which the history says', () => {
    const current = { ...held, cancellation_penalty_avoided: null };
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current, cost: late }).note).toEqual({
      block: { ...current, supplier_status: 'CANCELLED', cancellation_penalty: NIGHT },
      reason: `${REASON}; late cancellation fee 180.00 USD recorded on the booking`,
    });
    // In time: the fee avoided, as the task would have recorded it.
    const inTime = { fields: { cancellation_penalty_avoided: NIGHT }, reason: 'cancelled in time' };
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: held, cost: inTime }).note).toEqual({
      block: { ...held, supplier_status: 'CANCELLED', cancellation_penalty_avoided: NIGHT },
      reason: `${REASON}; cancelled in time`,
    });
    // Terms that price nothing: no fee fields, the reason as it is.
    expect(
      cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: held, cost: { fields: {}, reason: null } }).note,
    ).toEqual({ block: { ...held, supplier_status: 'CANCELLED' }, reason: REASON });
  });

  it('a move’s old room: the stay at the old hotel is recorded, with the booking’s note where it still names the room', () => {
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: movedOn, cost: late, moved })).toEqual({
      note: {
        block: { ...movedOn, supplier_status: 'CANCELLED', cancellation_penalty: NIGHT },
        reason: `${REASON}; late cancellation fee 180.00 USD recorded on the booking`,
      },
      moved,
    });
  });

  it('a move’s old room the booking no longer names live: the stay at the old hotel is recorded all the same', () => {
    for (const current of [
      { ...movedOn, supplier_ref: 'HR-2' },
      { property_id: 'acc_2', station: 'LHR' },
      null,
      { ...movedOn, supplier_status: 'CANCELLED' },
    ])
      expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current, cost: late, moved })).toEqual({
        note: null,
        moved,
      });
  });

  it('not where the booking names that very room at the old hotel: the booking is the stay its invoice finds', () => {
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: held, cost: late, moved }).moved).toBeNull();
    expect(
      cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: { ...held, supplier_status: 'CANCELLED' }, moved }),
    ).toEqual({ note: null, moved: null });
  });

  it('a ticket: the same, in its words (no fee, no stay)', () => {
    const ticket: SupplierBlock = { supplier: 'SANDBOX', supplier_ref: 'FO-1', supplier_status: 'TICKETED' };
    const r = cancelledBeforeRecord({
      type: 'FLIGHT',
      cancelled: { ...ticket, supplier_status: 'CANCELLED', refund: { amount: 10 } },
      current: ticket,
      cost: late,
      moved,
    });
    expect(r).toEqual({
      note: {
        block: { ...ticket, supplier_status: 'CANCELLED' },
        reason:
          'the ticket FO-1 (SANDBOX) was cancelled at the supplier by an earlier task that a later change replaced ' +
          'before it could record it: the booking no longer holds it',
      },
      moved: null,
    });
  });

  it('a block with no supplier named is the sandbox’s', () => {
    const { supplier: _s, ...unnamed } = held;
    expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current: unnamed }).note).not.toBeNull();
    expect(
      cancelledBeforeRecord({ type: 'HOTEL', cancelled: { ...unnamed, supplier_status: 'CANCELLED' }, current: held })
        .note,
    ).not.toBeNull();
  });

  it('nothing when the booking names another room, none, or that room already cancelled (the newer task’s record)', () => {
    for (const current of [
      { ...held, supplier_ref: 'HR-2' },
      { ...held, supplier: 'DUFFEL' },
      { ...started },
      null,
      cancelled,
      { ...held, supplier_status: 'REFUSED' },
    ])
      expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled, current, cost: late })).toEqual({
        note: null,
        moved: null,
      });
  });

  it('nothing when the task cancelled nothing there (no room named, or the supplier did not say cancelled)', () => {
    for (const c of [
      {},
      null,
      undefined,
      { ...held, supplier_status: 'CONFIRMED' },
      { ...cancelled, supplier_ref: null },
    ])
      expect(cancelledBeforeRecord({ type: 'HOTEL', cancelled: c, current: movedOn, cost: late, moved })).toEqual({
        note: null,
        moved: null,
      });
  });
});
