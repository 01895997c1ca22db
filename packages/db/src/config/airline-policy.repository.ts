import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import type { DbOrTrx } from '../database';

/*
 * What the booking policy reads of an airline, in a handful of set-based queries run side by side. The
 * context is assembled from it by the caller (the engine's bookingContextOf): this package knows no rule.
 */

/** Contracts of the airline's current hotels, each with its hotel: the policy groups them by station. */
function contractsByStation(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('hotel_contracts as c')
    .innerJoin('hotel_configs as h', 'h.hotel_config_id', 'c.hotel_config_id')
    .selectAll('c')
    .select(['h.base_station', 'h.property_id', 'h.terms', 'h.handler_type', 'h.name as hotel_name'])
    .where('c.airline_id', '=', airlineId)
    .where('h.in_current', '=', true)
    .execute();
}

/** Every exchange rate set, as the policy compares prices with them (the engine's fxTable picks the one in force). */
function policyRates(db: DbOrTrx): Promise<{ currency: string; as_of: string; rate: number }[]> {
  return db.selectFrom('fx_rates').select(['currency', 'as_of', 'rate']).execute();
}

/**
 * What the policy and the booking tasks need of an airline: its levers, company config, flight rules and
 * config, hotel config version, contracts and the exchange rates. Travellers come with their personal fields
 * sealed (and a legacy plain date of birth): the caller opens them (TravellerVault.openFacts). `travellerEmails`
 * limits the traveller profiles read (a booking task needs one, a schedule all its crew).
 */
export async function loadBookingFacts(db: DbOrTrx, airlineId: string, travellerEmails?: string[]) {
  const emails = travellerEmails?.map((e) => e.toLowerCase());
  const [airline, company, rules, flights, hotelVersion, travellers, contracts, fxRates, cost] = await Promise.all([
    db.selectFrom('airlines').selectAll().where('airline_id', '=', airlineId).executeTakeFirstOrThrow(),
    db.selectFrom('company_configs').selectAll().where('airline_id', '=', airlineId).executeTakeFirst(),
    db.selectFrom('flight_rules').selectAll().where('airline_id', '=', airlineId).executeTakeFirst(),
    db
      .selectFrom('flight_config_versions')
      .select(['snapshot', 'version'])
      .where('airline_id', '=', airlineId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('hotel_config_versions')
      .select('version')
      .where('airline_id', '=', airlineId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst(),
    emails && emails.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('travellers')
          .select([
            'traveller_email',
            'date_of_birth as legacy_date_of_birth',
            'personal_sealed',
            'first_name',
            'last_name',
            'name',
          ])
          .where('airline_id', '=', airlineId)
          .$if(emails !== undefined, (q) => q.where('traveller_email', 'in', emails!))
          .execute(),
    contractsByStation(db, airlineId),
    policyRates(db),
    db
      .selectFrom('cost_settings')
      .select(['cancel_hold_minutes', 'after_deadline'])
      .where('airline_id', '=', airlineId)
      .executeTakeFirst(),
  ]);
  return { airline, company, rules, flights, hotelVersion, travellers, contracts, fxRates, cost };
}

/** What choosing a flight needs of an airline (GET /crew/flight-options): its carrier, latest flight config, ceiling and the exchange rates. */
export async function loadFlightFacts(
  db: DbOrTrx,
  airlineId: string,
): Promise<{
  carrier_code: string;
  snapshot: FlightConfigSnapshot | null;
  auto_book_max_price: Money | null;
  fxRates: { currency: string; as_of: string; rate: number }[];
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
    policyRates(db),
  ]);
  return {
    carrier_code: airline.carrier_code,
    snapshot: flights?.snapshot ?? null,
    auto_book_max_price: rules?.auto_book_max_price ?? null,
    fxRates,
  };
}
