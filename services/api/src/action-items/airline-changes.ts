import { createHash } from 'node:crypto';
import { supplierSettingsRepo, type BookingRow, type Db } from '@crew/db';
import { acceptedChangeFlight, type ChangedFlight } from '@crew/engine';
import { ApiError, Keyring, type Config } from '@crew/platform';
import { createDuffelClient, DuffelChanges, isSupplierError, type DuffelAirlineChange } from '@crew/suppliers';

/*
 * A person accepts an airline's change to a ticketed Duffel deadhead from the review queue (ACCEPT_CHANGE).
 * The worker sent the booking to review with the change still open at Duffel (docs/duffel-changes.md); here
 * it is read again with the airline's token, and accepted at Duffel while the booking and the item are locked,
 * so of two people accepting at once only one reaches Duffel.
 */

/** The Duffel changes client of an airline's stored token, or null when the airline is not connected to Duffel. */
export type AirlineChangesOf = (airlineId: string) => Promise<DuffelChanges | null>;

/** A person's accept or read answers a person waiting on the page: a shorter deadline than a booking task's. */
const CALL_TIMEOUT_MS = 10_000;

export function airlineChangesOf(db: Db, config: Config): AirlineChangesOf {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  // One client per token (its connection pool reused), keyed by the token's digest, never the token.
  const clients = new Map<string, DuffelChanges>();
  return async (airlineId) => {
    const row = await supplierSettingsRepo.findSupplierSettings(db, airlineId);
    if (!row?.duffel_token_sealed) return null;
    const token = keyring.open(row.duffel_token_sealed, airlineId);
    const key = createHash('sha256').update(token).digest('hex');
    let c = clients.get(key);
    if (!c) {
      c = new DuffelChanges(createDuffelClient({ token, basePath: config.duffelApiUrl }), {
        timeoutMs: CALL_TIMEOUT_MS,
      });
      clients.set(key, c);
    }
    return c;
  };
}

/** The open change as read before the action's transaction, and the flight the booking takes with it. */
export interface ChangeToAccept {
  client: DuffelChanges;
  change: DuffelAirlineChange;
  flight: ChangedFlight;
}

/**
 * Reads the booking's open change from Duffel: 409 when the airline is no longer connected, when Duffel no
 * longer has the change, when someone declined or changed it at Duffel meanwhile, or when it adds no flight
 * (the airline removed the flight: a person books another one instead). A transient Duffel failure is 503.
 */
export async function changeToAccept(
  changesOf: AirlineChangesOf | undefined,
  b: BookingRow,
  changeId: string,
): Promise<ChangeToAccept> {
  const client = changesOf ? await changesOf(b.airline_id) : null;
  const orderId = b.flight?.supplier_ref;
  if (!client || !orderId)
    throw ApiError.conflict('The airline is not connected to Duffel: its change cannot be accepted from here');
  const change = await duffel(() => client.getChange(orderId, changeId));
  if (!change) throw ApiError.conflict(`Duffel no longer has the airline’s change ${changeId} on this order`);
  if (change.action_taken !== null && change.action_taken !== 'accepted')
    throw ApiError.conflict(`The airline’s change was already ${change.action_taken} at Duffel`);
  const flight = acceptedChangeFlight(change.added);
  if (!flight)
    throw ApiError.conflict('The airline removed the flight without a replacement: book another flight instead');
  return { client, change, flight };
}

/**
 * Accepts the change at Duffel (called with the booking locked). Already accepted (a first attempt whose
 * commit failed, a person at Duffel) counts as accepted; any other refusal is 409 and nothing is written.
 */
export async function acceptAtDuffel(c: ChangeToAccept): Promise<void> {
  if (c.change.action_taken === 'accepted') return;
  try {
    await c.client.acceptChange(c.change.id);
  } catch (err) {
    if (!isSupplierError(err) || err.transient) throw unavailable(err);
    const now = await duffel(() => c.client.getChange(c.change.order_id, c.change.id));
    if (now?.action_taken !== 'accepted')
      throw ApiError.conflict(
        `Duffel refused to accept the airline’s change (${err.code}); book another flight instead`,
      );
  }
}

async function duffel<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw unavailable(err);
  }
}

function unavailable(err: unknown): unknown {
  if (isSupplierError(err) && !err.transient)
    return ApiError.conflict(`Duffel refused the request about the airline’s change (${err.code})`);
  return isSupplierError(err) ? ApiError.unavailable('Duffel did not answer; try again') : err;
}
