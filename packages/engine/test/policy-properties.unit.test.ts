/** The auto-booking policy's decisions, as properties over generated items and contexts. */
import fc from 'fast-check';
import type { HotelTerms } from '../src/hotel-config';
import { decide, type PolicyContext, type PolicyItem } from '../src/policy';
import type { BookingStatus } from '../src/types';
import { period, STD, GUAR, FLEX, contract, stationHotel, ctx, at, pad, type Spec } from './policy-fixtures';

// ---------------------------------------------------------------- decide: properties

const CLASSES = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CANCELLED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'SWAP_IN',
  'SWAP_OUT',
  'UNCHANGED',
  'IROP_HOTEL_EXTEND',
];
const STATUSES: (BookingStatus | null)[] = [
  'PENDING',
  'CONFIRMED',
  'MODIFIED',
  'CANCELLED',
  'FAILED',
  'NEEDS_REVIEW',
  null,
];

const arbSettings = fc.record({
  deadhead_auto_booking: fc.boolean(),
  booking_modification: fc.boolean(),
  swap_execution: fc.boolean(),
  cancellation_execution: fc.boolean(),
});
const arbTerms: fc.Arbitrary<HotelTerms> = fc.oneof(fc.constant(STD), fc.constant(GUAR), fc.constant(FLEX));
const arbCtx = fc.record({
  settings: arbSettings,
  booker: fc.boolean(),
  dob: fc.boolean(),
  hotel: fc.option(
    fc.record({
      enabled: fc.boolean(),
      terms: arbTerms,
      contractTo: fc.constantFrom('2026-12-10', '2026-12-11', '2026-12-31'),
    }),
    { nil: null },
  ),
  lookback: fc.nat({ max: 10 }),
});
const arbItem = fc.record({
  type: fc.constantFrom<'HOTEL' | 'FLIGHT'>('HOTEL', 'FLIGHT'),
  subtype: fc.constantFrom<PolicyItem['subtype']>('NEW_BOOKING', 'MODIFY', 'CANCEL'),
  classification: fc.constantFrom(...CLASSES),
  status: fc.constantFrom(...STATUSES),
  day: fc.integer({ min: 1, max: 20 }),
  nights: fc.integer({ min: 0, max: 3 }),
  inHour: fc.integer({ min: 0, max: 23 }),
  outHour: fc.integer({ min: 0, max: 23 }),
  pinned: fc.constantFrom<string | null>(null, 'GDS-FRA-1', 'OTHER'),
});

function build(i: Spec<typeof arbItem>, c: Spec<typeof arbCtx>): [PolicyItem, PolicyContext] {
  const inDate = `2026-12-${pad(i.day)}`;
  const outDate = `2026-12-${pad(i.day + i.nights)}`;
  const policyItem: PolicyItem = {
    action_id: 'a',
    type: i.type,
    subtype: i.subtype,
    classification: i.classification,
    booking_status: i.status,
    traveller_email: 'e@x.example.com',
    ...(i.type === 'HOTEL'
      ? {
          station: 'FRA',
          checkin_time_local: at(inDate, `${pad(i.inHour)}:00`),
          checkout_time_local: at(outDate, `${pad(i.outHour)}:00`),
          property_id: i.pinned,
        }
      : {}),
  };
  const hotel = c.hotel
    ? stationHotel({
        terms: c.hotel.terms,
        contracts: [
          contract({
            automated_booking_enabled: c.hotel.enabled,
            contract_to: c.hotel.contractTo,
            rate_periods: [period('2026-12-01', c.hotel.contractTo, 100)],
          }),
        ],
      })
    : null;
  return [
    policyItem,
    ctx({
      settings: c.settings,
      crew_booker_email: c.booker ? 'b@x.example.com' : null,
      dob: c.dob,
      hotel,
      cancellation_lookback_days: c.lookback,
    }),
  ];
}

describe('decide: properties', () => {
  it('auto_eligible is true exactly for AUTO_* decisions; REVIEW always has a reason, AUTO_* and NONE never do', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        const d = decide(...build(i, c));
        expect(d.auto_eligible).toBe(d.action.startsWith('AUTO_'));
        if (d.action === 'REVIEW') expect(d.reason).toEqual(expect.any(String));
        else expect(d.reason).toBeNull();
        expect(d.hotel !== undefined).toBe(
          i.type === 'HOTEL' && (d.action === 'AUTO_BOOK' || d.action === 'AUTO_MODIFY'),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('a hotel booking or amendment is never AUTO_* while crew_booker_email is unset', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        fc.pre(i.type === 'HOTEL' && i.subtype !== 'CANCEL');
        const d = decide(...build(i, { ...c, booker: false }));
        expect(d.action.startsWith('AUTO_')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('no AUTO_* for a swap with swap_execution off, for an amendment with booking_modification off, or for a cancel with cancellation_execution off', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        const d = decide(...build(i, c));
        if (!d.action.startsWith('AUTO_')) return;
        if (i.classification === 'SWAP_IN' || i.classification === 'SWAP_OUT')
          expect(c.settings.swap_execution).toBe(true);
        if (i.subtype === 'MODIFY') expect(c.settings.booking_modification).toBe(true);
        if (i.subtype === 'CANCEL') expect(c.settings.cancellation_execution).toBe(true);
        if (i.type === 'FLIGHT' && i.subtype === 'NEW_BOOKING')
          expect(c.settings.deadhead_auto_booking && c.booker && c.dob).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
