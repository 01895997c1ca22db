/** Reads across an airline's ordered flight suppliers: the first that has offers, or that knows an id. */
import { isSupplierError } from './errors';
import type { AirlineSupplierSet, OrderedSupplier } from './registry';
import type { FlightOffer, FlightSearchQuery, FlightSupplier } from './types';

export interface FoundOffers {
  supplier: OrderedSupplier<FlightSupplier>;
  offers: FlightOffer[];
}

/**
 * Offers from the first supplier in the airline's order that has any for the route (merging is not needed);
 * the next is asked when one has none (after `keep`) or refuses. A transient failure is thrown: a search that
 * may succeed in a moment is not a reason to leave the airline's preferred supplier.
 */
export async function searchInOrder(
  set: AirlineSupplierSet,
  query: FlightSearchQuery,
  keep: (offers: FlightOffer[]) => FlightOffer[] = (o) => o,
): Promise<FoundOffers | null> {
  let refusal: Error | null = null;
  for (const supplier of set.flights) {
    try {
      const offers = keep(
        (await supplier.supplier.searchFlights(query)).map((o) => ({ ...o, supplier: supplier.name })),
      );
      if (offers.length > 0) return { supplier, offers };
    } catch (err) {
      if (!isSupplierError(err) || err.transient) throw err;
      refusal = err;
    }
  }
  if (refusal) throw refusal;
  return null;
}

/** The supplier (of the airline's order) that issued an offer id, with the offer; null when none knows it. */
export async function offerInOrder(
  set: AirlineSupplierSet,
  flightOptionId: string,
): Promise<{ supplier: OrderedSupplier<FlightSupplier>; offer: FlightOffer } | null> {
  for (const supplier of set.flights) {
    const offer = await supplier.supplier.getOffer(flightOptionId).catch((err: unknown) => {
      // A supplier refusing an id that is not its own (a malformed id for it) does not know it.
      if (isSupplierError(err) && !err.transient) return null;
      throw err;
    });
    if (offer) return { supplier, offer: { ...offer, supplier: supplier.name } };
  }
  return null;
}
