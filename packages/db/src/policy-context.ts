import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import * as configRepo from './config.repository';
import type { DbOrTrx } from './database';
import * as pipelineRepo from './pipeline.repository';
import { fxTable, type FxTable, type PolicyContext, type StationHotel } from '@crew/engine';
import * as fxRepo from './fx.repository';

/** The flight config an airline has before its first PUT. */
export const DEFAULT_FLIGHT_CONFIG: FlightConfigSnapshot = { preferred_airlines: [], blacklisted_airlines: [], preferred_cabin: 'ECONOMY', same_carrier_preference: false };

/** Everything the policy and the booking tasks need of an airline, read in a handful of set-based queries. */
export interface AirlineBookingContext {
  policy: PolicyContext;
  carrier_code: string;
  flightConfig: FlightConfigSnapshot;
  maxPrice: Money | null;
  /** The operator's exchange rates (auto_book_max_price and contracted rates are compared in one currency). */
  fxRates: FxTable;
  rateMatchMode: 'STRICT' | 'LOOSE';
  maxRetries: number;
  emitUnchanged: boolean;
  hotelConfigVersion: string | null;
  flightConfigVersion: string | null;
  travellers: Map<string, { date_of_birth: string | null; first_name: string | null; last_name: string | null; name: string | null }>;
}

/** `travellerEmails` limits the traveller profiles read (a booking task needs one, a schedule all its crew). */
export async function loadBookingContext(db: DbOrTrx, airlineId: string, processedAt: string, travellerEmails?: string[]): Promise<AirlineBookingContext> {
  const [base, contracts, fxRates] = await Promise.all([
    pipelineRepo.policyContext(db, airlineId, travellerEmails?.map((e) => e.toLowerCase())),
    configRepo.contractsByStation(db, airlineId),
    loadFxTable(db),
  ]);
  const hotels = new Map<string, StationHotel>();
  for (const c of contracts) {
    const h = hotels.get(c.base_station) ?? {
      hotel_config_id: c.hotel_config_id,
      station: c.base_station,
      property_id: c.property_id,
      handler_type: c.handler_type,
      name: c.hotel_name,
      terms: c.terms,
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
    fxRates,
    rateMatchMode: a.rate_match_mode,
    maxRetries: a.max_retries,
    emitUnchanged: a.emit_unchanged,
    hotelConfigVersion: base.hotelVersion ? `v${base.hotelVersion.version}` : null,
    flightConfigVersion: base.flights ? `v${base.flights.version}` : null,
    travellers,
  };
}

/** The operator's exchange rates as the engine's lookup table. */
export async function loadFxTable(db: DbOrTrx): Promise<FxTable> {
  return fxTable(await fxRepo.listRates(db));
}

/** What choosing a flight needs of an airline (GET /crew/flight-options): its carrier, flight config, ceiling and the exchange rates. */
export interface AirlineFlightPolicy {
  carrier_code: string;
  flightConfig: FlightConfigSnapshot;
  maxPrice: Money | null;
  fxRates: FxTable;
}

export async function loadFlightPolicy(db: DbOrTrx, airlineId: string): Promise<AirlineFlightPolicy> {
  const [airline, rules, flights, fxRates] = await Promise.all([
    db.selectFrom('airlines').select('carrier_code').where('airline_id', '=', airlineId).executeTakeFirstOrThrow(),
    db.selectFrom('flight_rules').select('auto_book_max_price').where('airline_id', '=', airlineId).executeTakeFirst(),
    db.selectFrom('flight_config_versions').select('snapshot').where('airline_id', '=', airlineId).orderBy('version', 'desc').limit(1).executeTakeFirst(),
    loadFxTable(db),
  ]);
  return { carrier_code: airline.carrier_code, flightConfig: flights?.snapshot ?? DEFAULT_FLIGHT_CONFIG, maxPrice: rules?.auto_book_max_price ?? null, fxRates };
}
