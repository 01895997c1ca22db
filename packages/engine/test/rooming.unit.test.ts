import {
  answerDeadline,
  answerApplies,
  blockWithRow,
  hotelHoldsStay,
  hotelMayHoldStay,
  movedAwayHolders,
  movedAwayRowKey,
  moveRefOfRow,
  roomingTaskKey,
  listDueAt,
  MIN_ANSWER_MS,
  roomingChange,
  roomingNight,
  roomingOutcome,
  roomingRecipientIssue,
  roomingResend,
  roomingRowRef,
  roomingSendAt,
  ROOMING_CANCEL_MARGIN_MINUTES,
  versionForRow,
} from '../src';

const H = 3_600_000;
const timing = { leadHours: 72, answerHours: 24 };

describe('rooming lists: which list a row goes on', () => {
  test("a stay's row goes on the list of its first night, the local check-in date", () => {
    expect(roomingNight('2027-03-10T23:30:00-05:00')).toBe('2027-03-10');
    expect(roomingNight('2027-03-11T01:00:00+09:00')).toBe('2027-03-11');
  });

  test('a row joins the night list still waiting to be sent, else starts the next version', () => {
    expect(versionForRow([])).toEqual({ version: 1, existing: false });
    expect(
      versionForRow([
        { version: 1, status: 'SENT' },
        { version: 2, status: 'QUEUED' },
      ]),
    ).toEqual({ version: 2, existing: true });
    expect(
      versionForRow([
        { version: 1, status: 'SENT' },
        { version: 2, status: 'ANSWERED' },
      ]),
    ).toEqual({ version: 3, existing: false });
  });

  test('the row reference is stable per stay', () => {
    expect(roomingRowRef('6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f')).toBe('RL-6F1C2D3E4A5B');
    expect(roomingRowRef('6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f')).toBe(
      roomingRowRef('6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f'),
    );
  });
});

describe('rooming lists: new, amended and cancelled rows', () => {
  test('a stay the hotel does not hold is NEW; one it holds is AMENDED', () => {
    expect(roomingChange('BOOK', false)).toEqual({ marking: 'NEW' });
    expect(roomingChange('AMEND', true)).toEqual({ marking: 'AMENDED' });
    expect(roomingChange('AMEND', false)).toEqual({ marking: 'NEW' });
  });

  test('a cancellation is a CANCELLED row when the hotel holds the stay, else nothing is sent and it is cancelled at once', () => {
    expect(roomingChange('CANCEL', true)).toEqual({ marking: 'CANCELLED' });
    expect(roomingChange('CANCEL', false)).toMatchObject({ marking: null, settle: 'CANCELLED' });
  });

  test('the hotel holds a stay after a sent or confirmed NEW/AMENDED row; not after a rejection, a cancellation or an unsent row', () => {
    expect(hotelHoldsStay([])).toBe(false);
    expect(hotelHoldsStay([{ marking: 'NEW', state: 'QUEUED' }])).toBe(false);
    expect(hotelHoldsStay([{ marking: 'NEW', state: 'SENT' }])).toBe(true);
    expect(hotelHoldsStay([{ marking: 'NEW', state: 'CONFIRMED' }])).toBe(true);
    expect(hotelHoldsStay([{ marking: 'NEW', state: 'REJECTED' }])).toBe(false);
    expect(
      hotelHoldsStay([
        { marking: 'NEW', state: 'CONFIRMED' },
        { marking: 'AMENDED', state: 'REJECTED' },
      ]),
    ).toBe(true);
    expect(
      hotelHoldsStay([
        { marking: 'NEW', state: 'CONFIRMED' },
        { marking: 'CANCELLED', state: 'CONFIRMED' },
      ]),
    ).toBe(false);
  });

  test('a row the hotel never answered (its list expired) may be held: a cancellation still tells the hotel, a new booking is NEW again', () => {
    const expired = [{ marking: 'NEW', state: 'EXPIRED' }] as const;
    expect(hotelHoldsStay(expired)).toBe(false);
    expect(hotelMayHoldStay(expired)).toBe(true);
    expect(roomingChange('CANCEL', hotelHoldsStay(expired), hotelMayHoldStay(expired))).toEqual({
      marking: 'CANCELLED',
    });
    expect(roomingChange('BOOK', hotelHoldsStay(expired), hotelMayHoldStay(expired))).toEqual({ marking: 'NEW' });
    expect(roomingChange('AMEND', hotelHoldsStay(expired), hotelMayHoldStay(expired))).toEqual({ marking: 'NEW' });
    // A rejection, a cancellation or a row never sent holds nothing, answered or not.
    expect(hotelMayHoldStay([{ marking: 'NEW', state: 'REJECTED' }])).toBe(false);
    expect(hotelMayHoldStay([{ marking: 'NEW', state: 'QUEUED' }])).toBe(false);
    expect(
      hotelMayHoldStay([
        { marking: 'NEW', state: 'CONFIRMED' },
        { marking: 'CANCELLED', state: 'EXPIRED' },
      ]),
    ).toBe(true);
    expect(
      hotelMayHoldStay([
        { marking: 'NEW', state: 'CONFIRMED' },
        { marking: 'CANCELLED', state: 'CONFIRMED' },
      ]),
    ).toBe(false);
    expect(hotelMayHoldStay([{ marking: 'NEW', state: 'SENT' }])).toBe(true);
  });
});

describe('rooming lists: when a list is sent', () => {
  const now = Date.parse('2027-03-01T12:00:00Z');
  test('P1 and P2 changes never wait for a batch', () => {
    expect(roomingSendAt('2027-03-20T15:00:00+00:00', 'P1', timing, now)).toBe(now);
    expect(roomingSendAt('2027-03-20T15:00:00+00:00', 'P2', timing, now)).toBe(now);
  });

  test('P3/P4 rows wait until the lead time before check-in, or go at once inside it', () => {
    expect(roomingSendAt('2027-03-20T15:00:00+00:00', 'P4', timing, now)).toBe(Date.parse('2027-03-17T15:00:00Z'));
    expect(roomingSendAt('2027-03-03T15:00:00+00:00', 'P3', timing, now)).toBe(now);
    expect(roomingSendAt('2027-03-20T15:00:00+00:00', 'P4', { ...timing, leadHours: 0 }, now)).toBe(now);
  });

  test('a cancellation reaches the hotel by its cancellation deadline: the batch send time is cut to the deadline less the margin', () => {
    // A P4 stay checking in 15 March 15:00 (20:00Z); the hotel's deadline 7 days before, 18:00 New York time (23:00Z).
    const checkin = '2027-03-15T15:00:00-05:00';
    const deadline = '2027-03-08T23:00:00.000Z';
    const cut = Date.parse(deadline) - ROOMING_CANCEL_MARGIN_MINUTES * 60_000;
    expect(roomingSendAt(checkin, 'P4', timing, now)).toBe(Date.parse('2027-03-12T20:00:00Z'));
    expect(roomingSendAt(checkin, 'P4', timing, now, deadline)).toBe(cut);
    // A batch that leaves before the cut is not delayed; inside the margin, or past the deadline, it goes now.
    expect(roomingSendAt(checkin, 'P4', timing, now, '2027-03-14T23:00:00.000Z')).toBe(
      Date.parse('2027-03-12T20:00:00Z'),
    );
    expect(roomingSendAt(checkin, 'P4', timing, cut + 1, deadline)).toBe(cut + 1);
    expect(roomingSendAt(checkin, 'P4', timing, Date.parse(deadline) + H, deadline)).toBe(Date.parse(deadline) + H);
    expect(roomingSendAt(checkin, 'P2', timing, now, deadline)).toBe(now);
  });

  test('a list leaves when its earliest row must', () => {
    expect(listDueAt([now + H, now, now + 2 * H])).toBe(now);
  });

  test('the answer deadline: answerHours after sending, cut at check-in, never under the minimum', () => {
    expect(answerDeadline(now, '2027-03-20T15:00:00+00:00', timing)).toBe(now + 24 * H);
    expect(answerDeadline(now, '2027-03-01T18:00:00+00:00', timing)).toBe(Date.parse('2027-03-01T18:00:00Z'));
    expect(answerDeadline(now, '2027-03-01T12:05:00+00:00', timing)).toBe(now + MIN_ANSWER_MS);
  });
});

describe("rooming lists: the hotel's answer", () => {
  test('a confirmation confirms a new row, modifies an amended one and cancels a cancellation', () => {
    const yes = { kind: 'CONFIRMED', confirmation_number: 'H-77' } as const;
    expect(roomingOutcome('NEW', yes).status).toBe('CONFIRMED');
    expect(roomingOutcome('AMENDED', yes).status).toBe('MODIFIED');
    expect(roomingOutcome('CANCELLED', yes).status).toBe('CANCELLED');
  });

  test("a rejection or no answer by the deadline needs review, with the hotel's reason", () => {
    expect(roomingOutcome('NEW', { kind: 'REJECTED', reason: 'sold out' })).toEqual({
      status: 'NEEDS_REVIEW',
      reason: 'the hotel rejected the rooming list row: sold out',
    });
    expect(roomingOutcome('NEW', { kind: 'EXPIRED', deadline: Date.parse('2027-03-02T12:00:00Z') }).reason).toContain(
      'did not answer the rooming list by 2027-03-02T12:00:00',
    );
  });

  test('only an unanswered current row takes an answer; a DIRECT hotel needs a reservations e-mail', () => {
    expect(answerApplies('SENT')).toBe(true);
    expect(answerApplies('SUPERSEDED')).toBe(false);
    expect(answerApplies('CONFIRMED')).toBe(false);
    expect(roomingRecipientIssue(null)).toMatch(/reservations_email/);
    expect(roomingRecipientIssue('res@hotel.example')).toBeNull();
  });
});

describe("rooming lists: an operator's resend", () => {
  const now = Date.parse('2027-03-01T12:00:00Z');
  const later = new Date(now + H);
  test('a waiting list is tried now; one being e-mailed is left alone; a sent one is sent again until its deadline', () => {
    expect(roomingResend({ status: 'QUEUED', expires_at: null }, now)).toEqual({ kind: 'SEND_NOW' });
    expect(roomingResend({ status: 'SENDING', expires_at: null }, now)).toEqual({ kind: 'SENDING' });
    expect(roomingResend({ status: 'SENT', expires_at: later }, now)).toEqual({ kind: 'RESEND' });
    expect(roomingResend({ status: 'SENT', expires_at: new Date(now) }, now)).toMatchObject({ kind: 'REFUSED' });
    // A resend being e-mailed (its sender's lease still running) is left alone too; one asked for again is tried now.
    const resending = {
      status: 'SENT',
      expires_at: later,
      resend_requested: false,
      next_attempt_at: new Date(now + 60_000),
    };
    expect(roomingResend(resending, now)).toEqual({ kind: 'SENDING' });
    expect(roomingResend({ ...resending, resend_requested: true }, now)).toEqual({ kind: 'RESEND' });
    expect(roomingResend({ ...resending, next_attempt_at: new Date(now) }, now)).toEqual({ kind: 'RESEND' });
  });

  test('an answered or expired list is refused, saying why', () => {
    const answered = roomingResend({ status: 'ANSWERED', expires_at: later, answered_at: new Date(now - H) }, now);
    expect(answered).toMatchObject({ kind: 'REFUSED' });
    expect((answered as { message: string }).message).toContain('answered this list at 2027-03-01T11:00:00.000Z');
    const expired = roomingResend({ status: 'EXPIRED', expires_at: new Date(now - H) }, now);
    expect((expired as { message: string }).message).toContain('deadline (2027-03-01T11:00:00.000Z) has passed');
  });
});

describe('rooming lists: a stay moved away from a DIRECT hotel', () => {
  const JFK = 7;
  const LHR = 9;
  const stay = { checkin_time_local: '2027-03-19T15:00:00-05:00', checkout_time_local: '2027-03-20T09:00:00-05:00' };
  const row = (hotel: number, marking: 'NEW' | 'AMENDED' | 'CANCELLED', state: 'SENT' | 'CONFIRMED' | 'REJECTED') => ({
    hotel_config_id: hotel,
    marking,
    state,
    ...stay,
  });

  test('each hotel is judged on its own rows: the one the stay moved away from holds it, and gets a CANCELLED row for its stay', () => {
    const amended = { ...row(JFK, 'AMENDED', 'CONFIRMED'), checkout_time_local: '2027-03-20T11:00:00-05:00' };
    expect(movedAwayHolders([row(JFK, 'NEW', 'CONFIRMED'), amended, row(LHR, 'NEW', 'SENT')], LHR)).toEqual([
      {
        hotel_config_id: JFK,
        checkin_time_local: stay.checkin_time_local,
        checkout_time_local: '2027-03-20T11:00:00-05:00',
      },
    ]);
    // A hotel whose rows are all the stay's hotel now's: nothing moved away.
    expect(movedAwayHolders([row(LHR, 'NEW', 'SENT')], LHR)).toEqual([]);
  });

  test('a hotel sent the cancellation already, or whose only row it rejected, holds nothing', () => {
    expect(movedAwayHolders([row(JFK, 'NEW', 'CONFIRMED'), row(JFK, 'CANCELLED', 'SENT')], LHR)).toEqual([]);
    expect(movedAwayHolders([row(JFK, 'NEW', 'REJECTED')], LHR)).toEqual([]);
    // Unanswered past its deadline, the row was still e-mailed: the hotel may hold the room, so it is told.
    expect(movedAwayHolders([{ ...row(JFK, 'NEW', 'SENT'), state: 'EXPIRED' as const }], LHR)).toEqual([
      { hotel_config_id: JFK, ...stay },
    ]);
    // Its cancellation rejected: it still holds the stay, and is told again.
    expect(
      movedAwayHolders([row(JFK, 'NEW', 'CONFIRMED'), row(JFK, 'CANCELLED', 'REJECTED')], LHR).map(
        (h) => h.hotel_config_id,
      ),
    ).toEqual([JFK]);
  });

  test("the moved-away row has a key of its own beside the task's row, and names the move", () => {
    const key = roomingTaskKey('AMEND-a1', 2);
    expect(key).toBe('AMEND-a1#2');
    expect(movedAwayRowKey(key)).not.toBe(key);
    expect(moveRefOfRow(movedAwayRowKey(key))).toBe('AMEND-a1');
    expect(moveRefOfRow(key)).toBeNull();
    expect(moveRefOfRow(null)).toBeNull();
  });

  test("a NEW row at the stay's hotel now drops the old hotel's confirmation from the block; an AMENDED one keeps its own", () => {
    const block = {
      property_id: 'CREWINN-LHR',
      confirmation_number: 'JFK-1',
      hotel_confirmed_at: '2027-03-13T12:00:00Z',
    };
    const placed = { row_ref: 'RL-1', list_id: 'l-2', version: 1 };
    expect(blockWithRow(block, { ...placed, marking: 'NEW' })).toEqual({
      property_id: 'CREWINN-LHR',
      rooming_ref: 'RL-1',
      rooming_status: 'QUEUED',
      rooming_marking: 'NEW',
      rooming_list_id: 'l-2',
      rooming_list_version: 1,
    });
    expect(blockWithRow(block, { ...placed, marking: 'AMENDED' })).toMatchObject({ confirmation_number: 'JFK-1' });
  });
});
