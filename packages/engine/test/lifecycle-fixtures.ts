/**
 * Fixtures of the booking lifecycle tests (lifecycle, airline-requests, patch-and-delete): decisions, a station's
 * hotel, a policy context.
 */
import fc from 'fast-check';
import { BOOKING_STATUSES, flightOptionsUrl } from '@crew/contracts';
import type { Decision, PolicyContext, StationHotel } from '../src';

export const status = fc.constantFrom(...BOOKING_STATUSES);
export const decisionArb: fc.Arbitrary<Decision> = fc.record({
  action: fc.constantFrom('AUTO_BOOK', 'AUTO_MODIFY', 'AUTO_CANCEL', 'REVIEW', 'NONE'),
  auto_eligible: fc.boolean(),
  reason: fc.option(fc.string()),
  recommended_action: fc.constant(null),
  flight_options_url: fc.constant(null),
});

export const HOTEL: StationHotel = {
  hotel_config_id: 7,
  station: 'FRA',
  property_id: 'GDS-FRA-1',
  handler_type: 'DIRECT',
  name: 'Airport Hotel FRA',
  terms: { policy: 'STANDARD', standard_check_in_time: '15:00', standard_check_out_time: '11:00' },
  contracts: [
    {
      contract_id: 10,
      contract_from: '2026-12-01',
      contract_to: '2026-12-31',
      automated_booking_enabled: true,
      rate_periods: [
        { effective_from: '2026-12-01', effective_to: '2026-12-31', rate: { amount: 120, currency: 'EUR' } },
      ],
    },
  ],
};

export function policy(over: Partial<PolicyContext> = {}): PolicyContext {
  return {
    settings: {
      deadhead_auto_booking: false,
      booking_modification: true,
      swap_execution: true,
      cancellation_execution: true,
    },
    crew_booker_email: 'booker@airline.example.com',
    cancellation_lookback_days: 0,
    hotels: new Map([['FRA', HOTEL]]),
    travellerHasDob: () => true,
    processedAt: '2026-12-05T10:00:00Z',
    flightOptionsUrl,
    ...over,
  };
}
