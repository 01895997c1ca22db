import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import * as configRepo from './config.repository';
import type { DbOrTrx } from './database';
import * as pipelineRepo from './pipeline.repository';
import type { HotelTerms } from './tables/config.table';
import type { PolicyContext, StationHotel } from '@crew/engine';

/** The flight config an airline has before its first PUT. */
export const DEFAULT_FLIGHT_CONFIG: FlightConfigSnapshot = { preferred_airlines: [], blacklisted_airlines: [], preferred_cabin: 'ECONOMY', same_carrier_preference: false };

/** Everything the policy and the booking tasks need of an airline, read in a handful of set-based queries. */
export interface AirlineBookingContext {
  policy: PolicyContext;
  carrier_code: string;
  flightConfig: FlightConfigSnapshot;
  maxPrice: Money | null;
  rateMatchMode: 'STRICT' | 'LOOSE';
  maxRetries: number;
  emitUnchanged: boolean;
  hotelConfigVersion: string | null;
  flightConfigVersion: string | null;
  travellers: Map<string, { date_of_birth: string | null; first_name: string | null; last_name: string | null; name: string | null }>;
}

/** `travellerEmails` limits the traveller profiles read (a booking task needs one, a schedule all its crew). */
export async function loadBookingContext(db: DbOrTrx, airlineId: string, processedAt: string, travellerEmails?: string[]): Promise<AirlineBookingContext> {
  const [base, contracts] = await Promise.all([pipelineRepo.policyContext(db, airlineId, travellerEmails?.map((e) => e.toLowerCase())), configRepo.contractsByStation(db, airlineId)]);
  const hotels = new Map<string, StationHotel>();
  for (const c of contracts) {
    const h = hotels.get(c.base_station) ?? {
      hotel_config_id: c.hotel_config_id,
      station: c.base_station,
      property_id: c.property_id,
      handler_type: c.handler_type,
      name: c.hotel_name,
      terms: c.terms as HotelTerms,
      contracts: [],
    };
    h.contracts.push({ contract_id: c.contract_id, contract_from: c.contract_from, contract_to: c.contract_to, automated_booking_enabled: c.automated_booking_enabled, rate_periods: c.rate_periods });
    hotels.set(c.base_station, h);
  }
  const travellers = new Map(base.travellers.map((t) => [t.traveller_email, t]));
  const a = base.airline;
  return {
    policy: {
      settings: a,
      crew_booker_email: base.company?.crew_booker_email ?? null,
      cancellation_lookback_days: base.company?.cancellation_lookback_days ?? 0,
      hotels,
      travellerHasDob: (email) => !!email && !!travellers.get(email.toLowerCase())?.date_of_birth,
      processedAt,
    },
    carrier_code: a.carrier_code,
    flightConfig: base.flights?.snapshot ?? DEFAULT_FLIGHT_CONFIG,
    maxPrice: base.rules?.auto_book_max_price ?? null,
    rateMatchMode: a.rate_match_mode,
    maxRetries: a.max_retries,
    emitUnchanged: a.emit_unchanged,
    hotelConfigVersion: base.hotelVersion ? `v${base.hotelVersion.version}` : null,
    flightConfigVersion: base.flights ? `v${base.flights.version}` : null,
    travellers,
  };
}
