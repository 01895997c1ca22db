import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import * as configRepo from './config/config.repository';
import type { DbOrTrx } from './database';
import * as airlinePolicyRepo from './config/airline-policy.repository';
import * as fxRepo from './fx/fx.repository';

/**
 * What the policy and the booking tasks need of an airline, read in a handful of set-based queries. The
 * context is assembled from it by the caller (the engine's bookingContextOf): this package knows no rule.
 * `travellerEmails` limits the traveller profiles read (a booking task needs one, a schedule all its crew).
 */
export async function loadBookingFacts(db: DbOrTrx, airlineId: string, travellerEmails?: string[]) {
  const [base, contracts, fxRates] = await Promise.all([
    airlinePolicyRepo.policyContext(
      db,
      airlineId,
      travellerEmails?.map((e) => e.toLowerCase()),
    ),
    configRepo.contractsByStation(db, airlineId),
    fxRepo.listRates(db),
  ]);
  return { ...base, contracts, fxRates };
}

/** What choosing a flight needs of an airline (GET /crew/flight-options): its carrier, latest flight config, ceiling and the exchange rates. */
export async function loadFlightFacts(
  db: DbOrTrx,
  airlineId: string,
): Promise<{
  carrier_code: string;
  snapshot: FlightConfigSnapshot | null;
  auto_book_max_price: Money | null;
  fxRates: fxRepo.FxRateRow[];
}> {
  const [airline, rules, flights, fxRates] = await Promise.all([
    db.selectFrom('airlines').select('carrier_code').where('airline_id', '=', airlineId).executeTakeFirstOrThrow(),
    db.selectFrom('flight_rules').select('auto_book_max_price').where('airline_id', '=', airlineId).executeTakeFirst(),
    db
      .selectFrom('flight_config_versions')
      .select('snapshot')
      .where('airline_id', '=', airlineId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst(),
    fxRepo.listRates(db),
  ]);
  return {
    carrier_code: airline.carrier_code,
    snapshot: flights?.snapshot ?? null,
    auto_book_max_price: rules?.auto_book_max_price ?? null,
    fxRates,
  };
}

// The roster diff's state (diff-state.ts) still assembles its context here; it moves to its caller with that file.
