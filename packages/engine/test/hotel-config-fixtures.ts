/** Fixtures of the hotel config tests (hotel-config*.test.ts): a hotel, its terms, the GDS inventory, a plan's parts. */
import type { HotelInput } from '@crew/contracts';
import type { ConfiguredHotel, HotelConfigPlan, HotelTerms, PropertyLookup } from '../src/hotel-config';

export const STD_IN: HotelInput = {
  property_id: 'GDS-FRA-1',
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};
export const STD_TERMS: HotelTerms = {
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};

/** The GDS inventory: GDS-FRA-1 and GDS-MUC-1 exist, GONE-1 was looked up and not found. */
export const LOOKUP: PropertyLookup = new Map([
  ['GDS-FRA-1', { name: 'Inventory Hotel FRA' }],
  ['GDS-MUC-1', { name: 'Inventory Hotel MUC' }],
  ['GONE-1', null],
]);

export const base = (station: string, hotel: HotelInput) => ({ base_station: station, hotels: [hotel] });

export function existing(over: Partial<ConfiguredHotel> = {}): ConfiguredHotel {
  return {
    hotel_config_id: 41,
    base_station: 'FRA',
    property_id: 'GDS-FRA-1',
    terms: STD_TERMS,
    has_contracts: false,
    automated_booking_enabled: false,
    ...over,
  };
}

export function refusal(plan: HotelConfigPlan) {
  if (plan.ok) throw new Error('expected a refusal');
  return plan.refusal;
}
export function hotels(plan: HotelConfigPlan) {
  if (!plan.ok)
    throw new Error(
      `expected a plan, got ${plan.refusal.status} ${plan.refusal.code}: ${JSON.stringify(plan.refusal.details)}`,
    );
  return plan.hotels;
}
