import { flightOptionsUrl } from '@crew/contracts';
import { loadBookingFacts, type DbOrTrx } from '@crew/db';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';

/** An airline's booking context: what the db reads of it, assembled by the engine (the links are the api's). */
export async function loadBookingContext(db: DbOrTrx, airlineId: string, processedAt: string, travellerEmails: string[]): Promise<AirlineBookingContext> {
  return bookingContextOf(await loadBookingFacts(db, airlineId, travellerEmails), processedAt, flightOptionsUrl);
}
