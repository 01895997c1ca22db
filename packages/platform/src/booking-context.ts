import { flightOptionsUrl } from '@crew/contracts';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';
import type { SealedPersonal, TravellerVault } from './traveller-vault';

type BookingFacts = Parameters<typeof bookingContextOf>[0];

/** What the db reads of an airline for its booking context (airlinePolicyRepo.loadBookingFacts): travellers sealed. */
export type SealedBookingFacts = Omit<BookingFacts, 'travellers'> & {
  travellers: readonly (Omit<BookingFacts['travellers'][number], 'date_of_birth'> & SealedPersonal)[];
};

/**
 * An airline's booking context as of `processedAt`, from what the db read of it: its travellers' personal fields
 * opened by the vault, assembled by the engine with the api's links. The api and the worker build it this one way.
 */
export function openBookingContext(
  vault: TravellerVault,
  airlineId: string,
  facts: SealedBookingFacts,
  processedAt: string,
): AirlineBookingContext {
  return bookingContextOf(vault.openFacts(airlineId, facts), processedAt, flightOptionsUrl);
}
