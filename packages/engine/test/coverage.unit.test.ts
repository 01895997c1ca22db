import fc from 'fast-check';
import { BOOKING_STATUSES, COVERAGE_ORIGINS, coverageOf, stayMatches, type CoverageFacts } from '../src';

const STAY = {
  station: 'JFK',
  checkin_time_local: '2027-03-10T15:00:00-05:00',
  checkout_time_local: '2027-03-11T09:00:00-05:00',
};
const LEG = {
  from_airport: 'LHR',
  to_airport: 'JFK',
  flight_number: 'BA117',
  dep_time_local: '2027-03-10T09:00:00+00:00',
  arr_time_local: '2027-03-10T12:00:00-05:00',
};
const booking = (status: (typeof BOOKING_STATUSES)[number], extra: Record<string, unknown> = {}) => ({
  status,
  pending_cancel: false,
  review_reason: null,
  ...STAY,
  ...extra,
});

describe('coverageOf (layovers)', () => {
  it('a rostered layover with a CONFIRMED or MODIFIED booking of the same stay is COVERED', () => {
    for (const status of ['CONFIRMED', 'MODIFIED'] as const)
      expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: booking(status), roster: STAY })).toEqual({
        status: 'COVERED',
        reason: null,
      });
  });
  it('the same instants written with another offset still match', () => {
    const b = booking('CONFIRMED', { checkin_time_local: '2027-03-10T20:00:00+00:00' });
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: b, roster: STAY })?.status).toBe('COVERED');
  });
  it('PENDING, FAILED and NEEDS_REVIEW are AT_RISK with their reason', () => {
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: booking('PENDING'), roster: STAY })).toEqual({
      status: 'AT_RISK',
      reason: 'the booking is PENDING with the supplier',
    });
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: booking('FAILED'), roster: STAY })).toEqual({
      status: 'AT_RISK',
      reason: 'the booking FAILED and awaits retry',
    });
    expect(
      coverageOf({
        type: 'HOTEL',
        origin: 'ROSTERED',
        booking: booking('NEEDS_REVIEW', { review_reason: 'no hotel configuration exists for station JFK' }),
        roster: STAY,
      }),
    ).toEqual({
      status: 'AT_RISK',
      reason: 'the booking awaits review: no hotel configuration exists for station JFK',
    });
  });
  it('a confirmed booking whose stay no longer matches the roster is AT_RISK', () => {
    const b = booking('CONFIRMED', { checkout_time_local: '2027-03-12T09:00:00-05:00' });
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: b, roster: STAY })).toEqual({
      status: 'AT_RISK',
      reason: 'the booking’s stay no longer matches the roster',
    });
    expect(
      coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: { ...b, station: 'EWR' }, roster: STAY })?.status,
    ).toBe('AT_RISK');
  });
  it('no booking, or a CANCELLED one, leaves a rostered layover UNCOVERED', () => {
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: null, roster: STAY })).toEqual({
      status: 'UNCOVERED',
      reason: 'no live hotel booking for this layover',
    });
    expect(coverageOf({ type: 'HOTEL', origin: 'ROSTERED', booking: booking('CANCELLED'), roster: STAY })?.status).toBe(
      'UNCOVERED',
    );
  });
  it('a live booking the roster dropped is AT_RISK (stay no longer rostered); a cancelled one is not shown', () => {
    expect(
      coverageOf({
        type: 'HOTEL',
        origin: 'DROPPED',
        booking: booking('NEEDS_REVIEW', { pending_cancel: true }),
        roster: null,
      }),
    ).toEqual({
      status: 'AT_RISK',
      reason: 'stay no longer rostered: its cancellation awaits review',
    });
    expect(coverageOf({ type: 'HOTEL', origin: 'DROPPED', booking: booking('CONFIRMED'), roster: null })).toEqual({
      status: 'AT_RISK',
      reason: 'stay no longer rostered: the booking is still CONFIRMED',
    });
    expect(coverageOf({ type: 'HOTEL', origin: 'DROPPED', booking: booking('CANCELLED'), roster: null })).toBeNull();
  });
  it('an injected stay is COVERED once confirmed and never shown once cancelled', () => {
    expect(coverageOf({ type: 'HOTEL', origin: 'INJECTED', booking: booking('CONFIRMED'), roster: null })?.status).toBe(
      'COVERED',
    );
    expect(coverageOf({ type: 'HOTEL', origin: 'INJECTED', booking: booking('PENDING'), roster: null })?.status).toBe(
      'AT_RISK',
    );
    expect(coverageOf({ type: 'HOTEL', origin: 'INJECTED', booking: booking('CANCELLED'), roster: null })).toBeNull();
  });
});

describe('coverageOf (deadheads)', () => {
  const flight = (status: (typeof BOOKING_STATUSES)[number], extra: Record<string, unknown> = {}) => ({
    status,
    pending_cancel: false,
    review_reason: null,
    ...LEG,
    ...extra,
  });
  it('a ticketed flight for exactly the leg is COVERED; another route is AT_RISK; none is UNCOVERED', () => {
    expect(coverageOf({ type: 'FLIGHT', origin: 'ROSTERED', booking: flight('CONFIRMED'), roster: LEG })?.status).toBe(
      'COVERED',
    );
    expect(
      coverageOf({
        type: 'FLIGHT',
        origin: 'ROSTERED',
        booking: flight('CONFIRMED', { to_airport: 'EWR' }),
        roster: LEG,
      }),
    ).toEqual({
      status: 'AT_RISK',
      reason: 'the booked flight no longer matches the roster’s leg',
    });
    expect(coverageOf({ type: 'FLIGHT', origin: 'ROSTERED', booking: null, roster: LEG })).toEqual({
      status: 'UNCOVERED',
      reason: 'no ticketed flight for this deadhead leg',
    });
  });
});

describe('coverageOf (properties)', () => {
  const stay = fc.record({
    station: fc.constantFrom('JFK', 'EWR'),
    checkin_time_local: fc.constantFrom(
      STAY.checkin_time_local,
      '2027-03-10T20:00:00+00:00',
      '2027-03-10T16:00:00-05:00',
    ),
    checkout_time_local: fc.constantFrom(STAY.checkout_time_local, '2027-03-12T09:00:00-05:00'),
  });
  const facts: fc.Arbitrary<CoverageFacts> = fc
    .record({
      type: fc.constant('HOTEL' as const),
      origin: fc.constantFrom(...COVERAGE_ORIGINS),
      booking: fc.option(
        fc
          .tuple(fc.constantFrom(...BOOKING_STATUSES), fc.boolean(), fc.option(fc.string()), stay)
          .map(([status, pending_cancel, review_reason, s]) => ({ status, pending_cancel, review_reason, ...s })),
      ),
      roster: stay,
    })
    .map((f) => ({ ...f, roster: f.origin === 'ROSTERED' ? f.roster : null }));

  it('COVERED exactly when a live, held booking not awaiting cancellation asks for the rostered stay; a reason for every other state', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const v = coverageOf(f);
        const b = f.booking;
        const held =
          !!b && (b.status === 'CONFIRMED' || b.status === 'MODIFIED') && !b.pending_cancel && f.origin !== 'DROPPED';
        if (v === null) return f.origin !== 'ROSTERED' && (!b || b.status === 'CANCELLED');
        if (v.status === 'COVERED') {
          expect(held).toBe(true);
          expect(v.reason).toBeNull();
        } else expect(v.reason).toEqual(expect.any(String));
        if (held && (f.origin !== 'ROSTERED' || stayMatches(b as never, f.roster as never)))
          expect(v.status).toBe('COVERED');
        if (v.status === 'UNCOVERED') expect(!b || b.status === 'CANCELLED').toBe(true);
        // A rostered row is always shown.
        return f.origin !== 'ROSTERED' || v !== null;
      }),
      { numRuns: 500 },
    );
  });
});
