import type { DbOrTrx } from '../database';

/**
 * What the booking policy needs of an airline, read once per schedule. Travellers come with their personal
 * fields sealed (and a legacy plain date of birth): the caller opens them (TravellerVault.openFacts).
 */
export async function policyContext(db: DbOrTrx, airlineId: string, travellerEmails?: string[]) {
  const [airline, company, rules, flights, hotelVersion, travellers] = await Promise.all([
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
    travellerEmails && travellerEmails.length === 0
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
          .$if(travellerEmails !== undefined, (q) => q.where('traveller_email', 'in', travellerEmails!))
          .execute(),
  ]);
  return { airline, company, rules, flights, hotelVersion, travellers };
}
