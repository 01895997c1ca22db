import type { AirlineSettings, FareConditions, FlightConfigSnapshot, Money, RatePeriod } from '@crew/contracts';
import { fxTable, type FxRate, type FxTable } from './fx';
import type { HotelTerms } from './hotel-config';
import { DEFAULT_COST_SETTINGS, type CancellationTerms, type CostSettings } from './cancellation-terms';
import type { PolicyContext, StationHotel } from './policy';

/** The flight config an airline has before its first PUT. */
export const DEFAULT_FLIGHT_CONFIG: FlightConfigSnapshot = {
  preferred_airlines: [],
  blacklisted_airlines: [],
  preferred_cabin: 'ECONOMY',
  same_carrier_preference: false,
};

/** What the repositories read of an airline for its bookings (the db package's loadBookingFacts). */
export interface BookingFacts {
  airline: Pick<
    AirlineSettings,
    'deadhead_auto_booking' | 'booking_modification' | 'swap_execution' | 'cancellation_execution'
  > & {
    carrier_code: string;
    rate_match_mode: 'STRICT' | 'LOOSE';
    max_retries: number;
    emit_unchanged: boolean;
  };
  company: { crew_booker_email: string | null; cancellation_lookback_days: number } | null | undefined;
  rules: { auto_book_max_price: Money | null; fare_conditions?: FareConditions } | null | undefined;
  flights: { snapshot: FlightConfigSnapshot; version: number } | null | undefined;
  hotelVersion: { version: number } | null | undefined;
  travellers: readonly {
    traveller_email: string;
    date_of_birth: string | null;
    first_name: string | null;
    last_name: string | null;
    name: string | null;
  }[];
  /** Contracts of the current hotel configuration, each with its hotel. */
  contracts: readonly {
    hotel_config_id: number;
    base_station: string;
    property_id: string;
    handler_type: 'GDS' | 'DIRECT';
    hotel_name: string | null;
    terms: unknown;
    contract_id: number;
    contract_from: string;
    contract_to: string;
    automated_booking_enabled: boolean;
    rate_periods: RatePeriod[];
    rate_access_code?: string | null;
    cancellation_terms?: CancellationTerms | null;
    hotel_time_zone?: string | null;
  }[];
  fxRates: readonly FxRate[];
  /** The airline's cost settings (absent: the defaults). */
  cost?: CostSettings | null;
}

/** Everything the policy and the booking tasks need of an airline. */
export interface AirlineBookingContext {
  policy: PolicyContext;
  carrier_code: string;
  flightConfig: FlightConfigSnapshot;
  maxPrice: Money | null;
  /** Which fares the engine books by itself (flight rules; ANY: the rule is off). */
  fareConditions: FareConditions;
  /** The operator's exchange rates (auto_book_max_price and contracted rates are compared in one currency). */
  fxRates: FxTable;
  rateMatchMode: 'STRICT' | 'LOOSE';
  maxRetries: number;
  emitUnchanged: boolean;
  hotelConfigVersion: string | null;
  flightConfigVersion: string | null;
  travellers: Map<
    string,
    { date_of_birth: string | null; first_name: string | null; last_name: string | null; name: string | null }
  >;
  /** The hold on roster cancellations and what happens after a hotel's deadline (GET /crew/config/cost). */
  costSettings: CostSettings;
}

/**
 * An airline's booking context from what was read of it: its hotels by station with their contracts, its
 * levers and booking account, its flight config (or the default), its ceiling and rates, and its travellers.
 * `flightOptionsUrl` is the api's link for a manual flight choice (the engine knows no paths).
 */
export function bookingContextOf(
  f: BookingFacts,
  processedAt: string,
  flightOptionsUrl: (actionId: string) => string,
): AirlineBookingContext {
  const hotels = new Map<string, StationHotel>();
  for (const c of f.contracts) {
    const h = hotels.get(c.base_station) ?? {
      hotel_config_id: c.hotel_config_id,
      station: c.base_station,
      property_id: c.property_id,
      handler_type: c.handler_type,
      name: c.hotel_name,
      terms: c.terms as HotelTerms,
      contracts: [],
    };
    h.contracts.push({
      contract_id: c.contract_id,
      contract_from: c.contract_from,
      contract_to: c.contract_to,
      automated_booking_enabled: c.automated_booking_enabled,
      rate_periods: c.rate_periods,
      ...(c.rate_access_code ? { rate_access_code: c.rate_access_code } : {}),
      cancellation_terms: c.cancellation_terms ?? null,
      hotel_time_zone: c.hotel_time_zone ?? null,
    });
    hotels.set(c.base_station, h);
  }
  const travellers = new Map(f.travellers.map((t) => [t.traveller_email, t]));
  const a = f.airline;
  return {
    policy: {
      settings: a,
      crew_booker_email: f.company?.crew_booker_email ?? null,
      cancellation_lookback_days: f.company?.cancellation_lookback_days ?? 0,
      hotels,
      travellerHasDob: (email) => !!email && !!travellers.get(email.toLowerCase())?.date_of_birth,
      processedAt,
      flightOptionsUrl,
    },
    carrier_code: a.carrier_code,
    flightConfig: f.flights?.snapshot ?? DEFAULT_FLIGHT_CONFIG,
    maxPrice: f.rules?.auto_book_max_price ?? null,
    fareConditions: f.rules?.fare_conditions ?? 'ANY',
    fxRates: fxTable(f.fxRates),
    rateMatchMode: a.rate_match_mode,
    maxRetries: a.max_retries,
    emitUnchanged: a.emit_unchanged,
    hotelConfigVersion: f.hotelVersion ? `v${f.hotelVersion.version}` : null,
    flightConfigVersion: f.flights ? `v${f.flights.version}` : null,
    travellers,
    costSettings: f.cost ?? DEFAULT_COST_SETTINGS,
  };
}

/** What choosing a flight needs of an airline (GET /crew/flight-options): its carrier, flight config, ceiling and the exchange rates. */
export interface AirlineFlightPolicy {
  carrier_code: string;
  flightConfig: FlightConfigSnapshot;
  maxPrice: Money | null;
  fxRates: FxTable;
}

export function flightPolicyOf(f: {
  carrier_code: string;
  snapshot: FlightConfigSnapshot | null | undefined;
  auto_book_max_price: Money | null | undefined;
  fxRates: readonly FxRate[];
}): AirlineFlightPolicy {
  return {
    carrier_code: f.carrier_code,
    flightConfig: f.snapshot ?? DEFAULT_FLIGHT_CONFIG,
    maxPrice: f.auto_book_max_price ?? null,
    fxRates: fxTable(f.fxRates),
  };
}
