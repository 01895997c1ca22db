import { flightOptionsUrl } from '@crew/contracts';
import { loadBookingFacts, type DbOrTrx } from '@crew/db';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';

/** An airline's booking context as of now: what the db reads of it, assembled by the engine with the api's links. */
export async function airlineBookingContext(db: DbOrTrx, airlineId: string, travellerEmails?: string[]): Promise<AirlineBookingContext> {
  return bookingContextOf(await loadBookingFacts(db, airlineId, travellerEmails), new Date().toISOString(), flightOptionsUrl);
}
