import { flightOptionsUrl } from '@crew/contracts';
import { loadBookingFacts, type DbOrTrx } from '@crew/db';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';
import type { TravellerVault } from '@crew/platform';

/** An airline's booking context as of now: what the db reads of it, its travellers opened by the vault, assembled by the engine with the api's links. */
export async function airlineBookingContext(
  db: DbOrTrx,
  vault: TravellerVault,
  airlineId: string,
  travellerEmails?: string[],
): Promise<AirlineBookingContext> {
  return bookingContextOf(
    vault.openFacts(airlineId, await loadBookingFacts(db, airlineId, travellerEmails)),
    new Date().toISOString(),
    flightOptionsUrl,
  );
}
