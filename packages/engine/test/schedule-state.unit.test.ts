/** The schedule state machine (spec 3.1) and what processing-status reports (spec 2.2). */
import fc from 'fast-check';
import { PROCESSING_STATUSES } from '@crew/contracts';
import {
  canMove,
  hasDiffResult,
  movesInto,
  pollRecommended,
  processingReport,
  reportedStatus,
  SCHEDULE_TRANSITIONS,
  staleSnapshot,
  statusAfterProcessing,
  UNPROCESSED,
} from '../src';

const statusArb = fc.constantFrom(...PROCESSING_STATUSES);

describe('transitions', () => {
  test('the table of spec 3.1', () => {
    expect(movesInto('PROCESSING')).toEqual(['QUEUED', 'PROCESSING']);
    expect(movesInto('FAILED')).toEqual(['QUEUED', 'PROCESSING']);
    expect(movesInto('BOOKING')).toEqual(['PROCESSING']);
    expect(movesInto('COMPLETED')).toEqual(['PROCESSING', 'BOOKING']);
    expect(movesInto('QUEUED')).toEqual([]);
    expect(UNPROCESSED).toEqual(['QUEUED', 'PROCESSING']);
  });

  test('only a schedule moved out of PROCESSING (by the transaction that writes its items) can have a diff result', () => {
    expect(PROCESSING_STATUSES.filter(hasDiffResult)).toEqual(
      PROCESSING_STATUSES.filter((s) => s !== 'QUEUED' && s !== 'PROCESSING'),
    );
    // Every status a diff's write moves a schedule into has one.
    for (const to of ['BOOKING', 'COMPLETED'] as const) expect(hasDiffResult(to)).toBe(true);
  });

  test('terminal statuses never move; nothing moves back to QUEUED', () => {
    fc.assert(
      fc.property(statusArb, statusArb, (from, to) => {
        if (from === 'COMPLETED' || from === 'FAILED' || from === 'PARTIAL') expect(canMove(from, to)).toBe(false);
        if (to === 'QUEUED') expect(canMove(from, to)).toBe(false);
        expect(canMove(from, to)).toBe(SCHEDULE_TRANSITIONS[from].includes(to));
      }),
    );
  });

  test('a processed schedule is BOOKING while any item is open, else COMPLETED; both are moves from PROCESSING', () => {
    fc.assert(
      fc.property(fc.nat(1000), (open) => {
        const to = statusAfterProcessing(open);
        expect(to).toBe(open > 0 ? 'BOOKING' : 'COMPLETED');
        expect(canMove('PROCESSING', to)).toBe(true);
      }),
    );
  });
});

describe('processing-status', () => {
  test('a COMPLETED schedule with deadhead tasks still running is reported as BOOKING', () => {
    expect(reportedStatus({ status: 'COMPLETED', open: 2, open_flight: 1 })).toBe('BOOKING');
    expect(reportedStatus({ status: 'COMPLETED', open: 0, open_flight: 0 })).toBe('COMPLETED');
  });

  test('poll while QUEUED, PROCESSING or BOOKING (a task open, or its completion check still to run); not once terminal', () => {
    fc.assert(
      fc.property(statusArb, fc.nat(5), fc.nat(5), (status, open, openFlight) => {
        const p = { status: status, open: open + openFlight, open_flight: openFlight };
        const reported = reportedStatus(p);
        expect(pollRecommended(p)).toBe(reported === 'QUEUED' || reported === 'PROCESSING' || reported === 'BOOKING');
        expect(processingReport(p)).toEqual({
          status: reported,
          poll_recommended: pollRecommended(p),
          flight_tasks_pending: openFlight,
        });
      }),
    );
    // Every task settled, the completion check not run yet: COMPLETED in a moment, so the client polls on.
    expect(pollRecommended({ status: 'BOOKING', open: 0, open_flight: 0 })).toBe(true);
    expect(pollRecommended({ status: 'COMPLETED', open: 0, open_flight: 0 })).toBe(false);
    expect(pollRecommended({ status: 'FAILED', open: 3, open_flight: 0 })).toBe(false);
  });
});

describe('staleSnapshot (spec 2.1 as_of, rule 2)', () => {
  const applied = { schedule_id: 's-new', as_of: '2027-03-10T10:00:00Z', start: '2027-03-10', end: '2027-03-16' };

  test('a snapshot captured before an applied one over an overlapping window is not applied', () => {
    const why = staleSnapshot({ as_of: '2027-03-10T09:00:00Z', start: '2027-03-16', end: '2027-03-20' }, applied);
    expect(why).toContain('s-new');
    expect(why).toContain('2027-03-10T09:00:00Z');
  });

  test('a later or equal capture, a window that does not overlap, or a missing as_of applies', () => {
    expect(
      staleSnapshot({ as_of: '2027-03-10T10:00:00Z', start: '2027-03-10', end: '2027-03-16' }, applied),
    ).toBeNull();
    expect(
      staleSnapshot({ as_of: '2027-03-10T11:00:00Z', start: '2027-03-10', end: '2027-03-16' }, applied),
    ).toBeNull();
    expect(
      staleSnapshot({ as_of: '2027-03-10T09:00:00Z', start: '2027-03-17', end: '2027-03-20' }, applied),
    ).toBeNull();
    expect(
      staleSnapshot({ as_of: '2027-03-10T09:00:00Z', start: '2027-03-01', end: '2027-03-09' }, applied),
    ).toBeNull();
    expect(staleSnapshot({ as_of: null, start: '2027-03-10', end: '2027-03-16' }, applied)).toBeNull();
    expect(
      staleSnapshot({ as_of: '2027-03-10T09:00:00Z', start: '2027-03-10', end: '2027-03-16' }, undefined),
    ).toBeNull();
  });

  test('captures are compared as instants, whatever their offset', () => {
    // 10:30+02:00 is 08:30Z: before the applied 10:00Z.
    const why = staleSnapshot({ as_of: '2027-03-10T10:30:00+02:00', start: '2027-03-10', end: '2027-03-16' }, applied);
    expect(why).not.toBeNull();
  });
});
