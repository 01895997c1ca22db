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
