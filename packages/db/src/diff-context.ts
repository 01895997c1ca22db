import { flightOptionsUrl } from '@crew/contracts';
import { bookingContextOf, type AirlineBookingContext } from '@crew/engine';
import type { DbOrTrx } from './database';
import { loadBookingFacts } from './policy-context';

export type { AirlineBookingContext };

/**
 * The booking context of the roster diff (diff-state.ts, the schedule processor), assembled here only until
 * that path assembles it itself like the api and the booking worker do: the last use of the engine in this
 * package outside diff-state.ts.
 */
export async function loadBookingContext(db: DbOrTrx, airlineId: string, processedAt: string, travellerEmails?: string[]): Promise<AirlineBookingContext> {
  return bookingContextOf(await loadBookingFacts(db, airlineId, travellerEmails), processedAt, flightOptionsUrl);
}
