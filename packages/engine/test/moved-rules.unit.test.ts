/**
 * Rules that the repositories used to apply themselves and now take from the engine: an airline's booking
 * context, a rooming row's settlement, coverage verdicts on query rows and the rostered rows of a window.
 */
import fc from 'fast-check';
import { flightOptionsUrl } from '@crew/contracts';
import {
  bookingContextOf,
  classifyDeadheads,
  classifyLayovers,
  DEFAULT_FLIGHT_CONFIG,
  DISPOSITION_OF_TASK,
  flightPolicyOf,
  roomingOutcome,
  rosteredRowsIn,
  rowSettlement,
  type BookingFacts,
  type DeadheadRow,
  type LayoverRow,
  type RoomingAnswer,
  type RoomingMarking,
} from '../src';

const contract = (station: string, id: number) => ({
  hotel_config_id: station === 'FRA' ? 1 : 2,
  base_station: station,
  property_id: `P-${station}`,
  handler_type: 'GDS' as const,
  hotel_name: `Hotel ${station}`,
  terms: { policy: 'STANDARD' },
  contract_id: id,
  contract_from: '2026-01-01',
  contract_to: '2026-12-31',
  automated_booking_enabled: true,
  rate_periods: [],
});

const facts = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  airline: {
    deadhead_auto_booking: true,
    booking_modification: false,
    swap_execution: true,
    cancellation_execution: false,
    carrier_code: 'XY',
    rate_match_mode: 'STRICT',
    max_retries: 3,
    emit_unchanged: false,
  },
  company: { crew_booker_email: 'booker@x', cancellation_lookback_days: 2 },
  rules: { auto_book_max_price: { amount: 500, currency: 'EUR' } },
  flights: { snapshot: { ...DEFAULT_FLIGHT_CONFIG, preferred_cabin: 'BUSINESS' }, version: 4 },
  hotelVersion: { version: 7 },
  travellers: [{ traveller_email: 'a@x', date_of_birth: '1980-01-01', first_name: 'A', last_name: 'B', name: 'A B' }],
  contracts: [contract('FRA', 10), contract('FRA', 11), contract('MUC', 12)],
  fxRates: [{ currency: 'USD', rate: 0.9, as_of: '2026-01-01' }],
  ...over,
});

describe('bookingContextOf', () => {
  test('hotels by station with every contract, the levers, versions and travellers', () => {
    const ctx = bookingContextOf(facts(), '2026-06-01T00:00:00Z', flightOptionsUrl);
    expect([...ctx.policy.hotels.keys()]).toEqual(['FRA', 'MUC']);
    expect(ctx.policy.hotels.get('FRA')!.contracts.map((c) => c.contract_id)).toEqual([10, 11]);
    expect(ctx.policy.crew_booker_email).toBe('booker@x');
    expect(ctx.policy.cancellation_lookback_days).toBe(2);
    expect(ctx.policy.travellerHasDob('A@X')).toBe(true);
    expect(ctx.policy.travellerHasDob('nobody@x')).toBe(false);
    expect(ctx.policy.travellerHasDob(null)).toBe(false);
    expect(ctx.policy.flightOptionsUrl('a b')).toBe(flightOptionsUrl('a b'));
    expect(ctx).toMatchObject({
      carrier_code: 'XY',
      maxRetries: 3,
      rateMatchMode: 'STRICT',
      hotelConfigVersion: 'v7',
      flightConfigVersion: 'v4',
      maxPrice: { amount: 500, currency: 'EUR' },
    });
    expect(ctx.flightConfig.preferred_cabin).toBe('BUSINESS');
    expect(ctx.fxRates.get('USD')).toHaveLength(1);
  });

  test('an airline with nothing configured: no booker, lookback 0, the default flight config, no versions', () => {
    const ctx = bookingContextOf(
      facts({ company: undefined, rules: undefined, flights: undefined, hotelVersion: undefined, contracts: [] }),
      '2026-06-01T00:00:00Z',
      flightOptionsUrl,
    );
    expect(ctx.policy.crew_booker_email).toBeNull();
    expect(ctx.policy.cancellation_lookback_days).toBe(0);
    expect(ctx.flightConfig).toEqual(DEFAULT_FLIGHT_CONFIG);
    expect(ctx).toMatchObject({ maxPrice: null, hotelConfigVersion: null, flightConfigVersion: null });
  });

  test('flightPolicyOf: the default config and no ceiling unless set', () => {
    expect(
      flightPolicyOf({ carrier_code: 'XY', snapshot: null, auto_book_max_price: null, fxRates: [] }),
    ).toMatchObject({
      carrier_code: 'XY',
      flightConfig: DEFAULT_FLIGHT_CONFIG,
      maxPrice: null,
    });
  });
});

describe('rowSettlement', () => {
  const answer: fc.Arbitrary<RoomingAnswer> = fc.oneof(
    fc.record({ kind: fc.constant('CONFIRMED' as const), confirmation_number: fc.string({ minLength: 1 }) }),
    fc.record({ kind: fc.constant('REJECTED' as const), reason: fc.string({ minLength: 1 }) }),
    fc.record({ kind: fc.constant('EXPIRED' as const), deadline: fc.integer({ min: 0, max: 4e12 }) }),
  );

  test("the row's state, the booking's status and the item's disposition all follow the answer", () => {
    fc.assert(
      fc.property(fc.constantFrom<RoomingMarking>('NEW', 'AMENDED', 'CANCELLED'), answer, (marking, a) => {
        const s = rowSettlement(marking, a);
        const outcome = roomingOutcome(marking, a);
        expect(s.state).toBe(a.kind);
        expect(s.answered).toBe(a.kind !== 'EXPIRED');
        expect(s.confirmation_number).toBe(a.kind === 'CONFIRMED' ? a.confirmation_number : null);
        expect(s.reject_reason).toBe(a.kind === 'REJECTED' ? a.reason : null);
        expect({ status: s.status, reason: s.reason }).toEqual(outcome);
        expect(s.disposition).toBe(DISPOSITION_OF_TASK[outcome.status]);
      }),
    );
  });
});

describe('coverage of query rows', () => {
  const stay = {
    station: 'FRA',
    checkin_time_local: '2026-06-01T15:00:00+02:00',
    checkout_time_local: '2026-06-02T11:00:00+02:00',
  };
  const layover = (over: Record<string, unknown> = {}) => ({
    origin: 'ROSTERED' as const,
    row_key: 'k',
    booking_id: 'b1',
    booking_status: 'CONFIRMED',
    pending_cancel: false,
    review_reason: null,
    ...stay,
    b_station: stay.station,
    b_checkin_time_local: stay.checkin_time_local,
    b_checkout_time_local: stay.checkout_time_local,
    ...over,
  });

  test('a held booking for exactly the stay covers it; none leaves it uncovered; a pending one puts it at risk', () => {
    expect(classifyLayovers([layover()])).toMatchObject([{ row_key: 'k', status: 'COVERED', reason: null }]);
    expect(classifyLayovers([layover({ booking_id: null, booking_status: null })])).toMatchObject([
      { status: 'UNCOVERED' },
    ]);
    expect(classifyLayovers([layover({ booking_status: 'PENDING' })])).toMatchObject([{ status: 'AT_RISK' }]);
  });

  test('a cancelled booking the roster no longer holds is not shown', () => {
    expect(classifyLayovers([layover({ origin: 'DROPPED', booking_status: 'CANCELLED' })])).toEqual([]);
  });

  test('deadhead legs the same way', () => {
    const leg = {
      from_airport: 'FRA',
      to_airport: 'MUC',
      flight_number: 'XY1',
      dep_time_local: '2026-06-01T08:00:00+02:00',
      arr_time_local: '2026-06-01T09:00:00+02:00',
    };
    const row = {
      origin: 'ROSTERED' as const,
      row_key: 'd',
      booking_id: 'b2',
      booking_status: 'MODIFIED',
      pending_cancel: false,
      review_reason: null,
      ...leg,
      b_from_airport: 'FRA',
      b_to_airport: 'MUC',
      b_flight_number: 'XY1',
      b_dep_time_local: leg.dep_time_local,
      b_arr_time_local: leg.arr_time_local,
    };
    expect(classifyDeadheads([row])).toMatchObject([{ status: 'COVERED' }]);
    expect(classifyDeadheads([{ ...row, b_to_airport: 'BER' }])).toMatchObject([{ status: 'AT_RISK' }]);
  });
});

describe('rosteredRowsIn', () => {
  const crew = { employee_id: 'E1', traveller_email: 'A@X', name: 'A', rank: 'CA' as never, home_base: 'FRA' };
  const layover = (key: string, checkin: string): LayoverRow => ({
    ...crew,
    row: 1,
    key,
    pairing_number: 'P1',
    duty_period_num: 1,
    duty_date: checkin.slice(0, 10),
    station: 'MUC',
    checkin_time_local: checkin,
    checkout_time_local: checkin,
  });
  const leg = (key: string, date: string): DeadheadRow => ({
    ...crew,
    row: 2,
    key,
    pairing_number: 'P1',
    duty_period_num: 1,
    duty_date: date,
    leg_sequence: 1,
    from_airport: 'FRA',
    to_airport: 'MUC',
    flight_number: null,
    dep_time_local: `${date}T08:00:00+02:00`,
    arr_time_local: `${date}T09:00:00+02:00`,
    scheduled_dep_time_local: `${date}T08:00:00+02:00`,
    scheduled_arr_time_local: `${date}T09:00:00+02:00`,
  });

  test('only rows dated inside the window, by local check-in date (layovers) or duty date (legs), with their roster date', () => {
    const window = { start: '2026-06-01', end: '2026-06-02' };
    const out = rosteredRowsIn(window, {
      layovers: [layover('in', '2026-06-02T23:30:00-05:00'), layover('out', '2026-06-03T00:30:00+02:00')],
      deadheads: [leg('in', '2026-06-01'), leg('out', '2026-05-31')],
      flaggedKeys: ['f'],
    });
    expect(out.layovers.map((l) => [l.row_key, l.roster_date, l.traveller_email])).toEqual([
      ['in', '2026-06-02', 'a@x'],
    ]);
    expect(out.deadheads.map((d) => [d.row_key, d.roster_date, d.dep_at])).toEqual([
      ['in', '2026-06-01', '2026-06-01T08:00:00+02:00'],
    ]);
    expect(out.flaggedKeys).toEqual(['f']);
  });
});
