import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

/*
 * Reads and writes of airline-initiated changes on supplier orders: the booking a supplier order belongs to,
 * the live Duffel bookings the periodic check looks at, and the webhook registered with an airline's token.
 */

/** The FLIGHT booking that holds a supplier order (the newest, should an order ever be recorded twice). */
export function findBookingBySupplierRef(db: DbOrTrx, airlineId: string, supplierRef: string) {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('type', '=', 'FLIGHT')
    .where(sql<string>`flight->>'supplier_ref'`, '=', supplierRef)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * An airline's ticketed Duffel deadheads from `fromDate` on, soonest duty first, at most `limit`: the ones
 * a change can still matter for. Past duties are never looked at again, so the work stays bounded.
 */
export function liveDuffelBookings(db: DbOrTrx, airlineId: string, fromDate: string, limit: number) {
  return db
    .selectFrom('bookings')
    .select(['booking_id', 'duty_date', sql<string>`flight->>'supplier_ref'`.as('supplier_ref')])
    .where('airline_id', '=', airlineId)
    .where('type', '=', 'FLIGHT')
    .where('status', 'in', ['CONFIRMED', 'MODIFIED'])
    .where(sql<string>`flight->>'supplier'`, '=', 'DUFFEL')
    .where(sql<string>`flight->>'supplier_ref'`, 'is not', null)
    .where('duty_date', '>=', fromDate)
    .orderBy('duty_date')
    .orderBy('booking_id')
    .limit(limit)
    .execute();
}

/** Airlines connected to Duffel, with what the check needs (token, webhook). */
export function duffelConnectedAirlines(db: DbOrTrx) {
  return db
    .selectFrom('airline_suppliers')
    .select(['airline_id', 'duffel_token_sealed', 'duffel_webhook_id', 'duffel_webhook_secret_sealed'])
    .where('duffel_token_sealed', 'is not', null)
    .orderBy('airline_id')
    .execute();
}

/**
 * Records the webhook registered with a token, only while that token is still the airline's (a PUT that
 * replaced the token meanwhile must not get the old token's webhook) and none is recorded yet: of a PUT and the
 * worker's check registering at the same time, the first recorded stays (false for the other).
 */
export async function saveDuffelWebhook(
  db: DbOrTrx,
  airlineId: string,
  tokenSealed: string,
  webhookId: string,
  secretSealed: string,
): Promise<boolean> {
  const r = await db
    .updateTable('airline_suppliers')
    .set({ duffel_webhook_id: webhookId, duffel_webhook_secret_sealed: secretSealed, updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .where('duffel_token_sealed', '=', tokenSealed)
    .where('duffel_webhook_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
