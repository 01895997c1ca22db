import { flightOptionsUrl } from '@crew/contracts';
import { airlinePolicyRepo, type DbOrTrx } from '@crew/db';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';
import type { TravellerVault } from '@crew/platform';

/**
 * An airline's booking context as of `processedAt`: what the db reads of it (airlinePolicyRepo), its travellers'
 * personal fields opened by the vault, assembled by the engine with the api's links. The api builds its own the
 * same way (services/api/src/bookings/booking-context.ts): a service imports no other service.
 */
export async function loadBookingContext(
  db: DbOrTrx,
  vault: TravellerVault,
  airlineId: string,
  processedAt: string,
  travellerEmails?: string[],
): Promise<AirlineBookingContext> {
  return bookingContextOf(
    vault.openFacts(airlineId, await airlinePolicyRepo.loadBookingFacts(db, airlineId, travellerEmails)),
    processedAt,
    flightOptionsUrl,
  );
}
