import type { SupplierRegistry } from '@crew/suppliers';
import type { AirlineStays } from './hotels.service';

/**
 * The airline's Duffel Stays, from its supplier order in the registry (the token opened there), for the hotel
 * config's channel lookup, the status refresh and the airline-scoped property search. Null when Duffel is not
 * among its hotel suppliers.
 */
export function airlineStays(registry: SupplierRegistry): AirlineStays {
  return async (airlineId) =>
    (await registry.forAirline(airlineId)).hotels.find((h) => h.name === 'DUFFEL')?.supplier ?? null;
}
