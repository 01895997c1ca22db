import type { DbOrTrx } from '../database';

export interface OrderSighting {
  airline_id: string;
  supplier: string;
  supplier_ref: string;
  /** Our reference from the order's metadata, when the announcement carried it. */
  reference: string | null;
  event_id: string;
}

/** Records an announced order once (a redelivered event, or one seen again, changes nothing). */
export async function recordOrderSighting(db: DbOrTrx, sighting: OrderSighting): Promise<void> {
  await db
    .insertInto('supplier_order_sightings')
    .values(sighting)
    .onConflict((oc) => oc.columns(['airline_id', 'supplier', 'supplier_ref']).doNothing())
    .execute();
}

/**
 * The orders that may be the one a booking's timed-out call made: those announced with its reference, then those
 * announced without one since the attempt began (newest first, at most `limit`; each is read to check).
 */
export async function sightedOrders(
  db: DbOrTrx,
  airlineId: string,
  supplier: string,
  reference: string,
  since: Date,
  limit = 20,
): Promise<string[]> {
  const rows = await db
    .selectFrom('supplier_order_sightings')
    .select(['supplier_ref', 'reference'])
    .where('airline_id', '=', airlineId)
    .where('supplier', '=', supplier)
    .where((eb) =>
      eb.or([eb('reference', '=', reference), eb.and([eb('reference', 'is', null), eb('seen_at', '>=', since)])]),
    )
    .orderBy('seen_at', 'desc')
    .limit(limit)
    .execute();
  // The ones carrying this reference first: they need no second look.
  return [...rows.filter((r) => r.reference === reference), ...rows.filter((r) => r.reference !== reference)].map(
    (r) => r.supplier_ref,
  );
}
