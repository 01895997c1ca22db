import { flightOptionsUrl } from '@crew/contracts';
import { loadBookingFacts, type DbOrTrx } from '@crew/db';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';
import type { TravellerVault } from '@crew/platform';

/**
 * An airline's booking context: what the db reads of it, its travellers' personal fields opened by the vault,
 * assembled by the engine (the links are the api's).
 */
export async function loadBookingContext(
  db: DbOrTrx,
  vault: TravellerVault,
  airlineId: string,
  processedAt: string,
  travellerEmails: string[],
): Promise<AirlineBookingContext> {
  return bookingContextOf(
    vault.openFacts(airlineId, await loadBookingFacts(db, airlineId, travellerEmails)),
    processedAt,
    flightOptionsUrl,
  );
}
