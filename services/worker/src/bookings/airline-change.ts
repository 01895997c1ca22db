/**
 * Airline-initiated changes on the Duffel orders of our deadheads. A verified webhook event (a job naming the
 * change) or the periodic check brings a change here; it is always read again from Duffel with the airline's
 * token, the engine decides, and we carry it out: accept at Duffel and update the flight block, or send the
 * booking to review with the change id kept, so a person can accept it later.
 */
import { createHash } from 'node:crypto';
import { airlineChangeRepo, bookingRepo, supplierSettingsRepo, webhookRepo, type BookingRow, type Db } from '@crew/db';
import {
  BOOKING_EVENT_STATUSES,
  acceptedFlightBlock,
  decideAirlineChange,
  storedReviewStateOf,
  urgentEvents,
  type AirlineChangeDecision,
  type ChangedBookingFacts,
} from '@crew/engine';
import { Keyring, type Config, type Logger } from '@crew/platform';
import type { JobData, TaskPriority } from '@crew/queue';
import {
  createDuffelClient,
  DuffelChanges,
  duffelCallbackUrl,
  isSupplierError,
  registerDuffelWebhook,
  type DuffelAirlineChange,
} from '@crew/suppliers';

export type AirlineChangeJobData = JobData<'supplier-changes', 'airline-change'>;

export interface AirlineChangeDeps {
  db: Db;
  config: Config;
  logger: Logger;
  /** The changes client of a token; default: the deployment's Duffel (DUFFEL_API_URL). */
  changesClient?: (token: string) => DuffelChanges;
  /** Registers the airline's webhook when the PUT could not; default: the deployment's Duffel. */
  registerWebhook?: (token: string, url: string) => Promise<{ id: string; secret: string }>;
  /** Called after a commit that wrote webhook deliveries. */
  webhookKick?: () => void;
  now?: () => Date;
  /** Most bookings of one airline the periodic check reads changes for (default 100). */
  sweepLimitPerAirline?: number;
}

export type ChangeOutcome = 'ACCEPTED' | 'NEEDS_REVIEW' | 'IGNORED' | 'NO_BOOKING' | 'UNKNOWN_CHANGE' | 'NOT_CONNECTED';

/** Duffel's per-call deadline here: a read or an accept, never a purchase. */
const CALL_TIMEOUT_MS = 10_000;

export class AirlineChangeProcessor {
  private readonly keyring: Keyring;
  private readonly clients = new Map<string, DuffelChanges>();
  /** Set on shutdown: a check under way ends after the Duffel call in flight (the next pass looks again). */
  private stopping = false;

  constructor(private readonly deps: AirlineChangeDeps) {
    this.keyring = Keyring.parse(deps.config.supplierCredentialsKey);
  }

  /** One client per token (its connection pool reused), keyed by the token's digest, never the token. */
  private client(token: string): DuffelChanges {
    const key = createHash('sha256').update(token).digest('hex');
    let c = this.clients.get(key);
    if (!c) {
      c =
        this.deps.changesClient?.(token) ??
        new DuffelChanges(createDuffelClient({ token, basePath: this.deps.config.duffelApiUrl }), {
          timeoutMs: CALL_TIMEOUT_MS,
        });
      this.clients.set(key, c);
    }
    return c;
  }

  private async clientFor(airlineId: string): Promise<DuffelChanges | null> {
    const row = await supplierSettingsRepo.findSupplierSettings(this.deps.db, airlineId);
    return row?.duffel_token_sealed ? this.client(this.keyring.open(row.duffel_token_sealed, airlineId)) : null;
  }

  /** A job: the change an event named, read again from Duffel. Transient supplier failures throw (the job retries). */
  async process(data: AirlineChangeJobData): Promise<ChangeOutcome> {
    const client = await this.clientFor(data.airline_id);
    if (!client) return 'NOT_CONNECTED';
    const change = await client.getChange(data.order_id, data.change_id);
    if (!change) return 'UNKNOWN_CHANGE';
    return this.apply(data.airline_id, client, change);
  }

  async apply(airlineId: string, client: DuffelChanges, change: DuffelAirlineChange): Promise<ChangeOutcome> {
    const log = this.deps.logger.child({
      component: 'airline-changes',
      airline_id: airlineId,
      change_id: change.id,
      order_id: change.order_id,
    });
    const booking = await airlineChangeRepo.findBookingBySupplierRef(this.deps.db, airlineId, change.order_id);
    if (!booking) {
      log.info('airline-initiated change on an order no booking holds; left alone');
      return 'NO_BOOKING';
    }
    let decision = decideAirlineChange(factsOf(booking), change);
    if (decision.kind === 'IGNORE') return 'IGNORED';
    if (decision.kind === 'ACCEPT') {
      try {
        await client.acceptChange(change.id);
      } catch (err) {
        if (!isSupplierError(err) || err.transient) throw err;
        // Accepted meanwhile (the event's job and the periodic check raced, or a person at Duffel): recorded as
        // accepted. Refused for any other reason: a person looks, the change id kept.
        const now = await client.getChange(change.order_id, change.id);
        if (now?.action_taken !== 'accepted')
          decision = {
            kind: 'REVIEW',
            reason: `Duffel refused to accept the airline's change (${err.code})`,
            recommended_action: 'ACCEPT_CHANGE',
          };
      }
    }
    const done = await this.record(booking, change, decision);
    log.info(
      { booking_id: booking.booking_id, decision: decision.kind, recorded: done },
      'airline-initiated change handled',
    );
    if (!done) return 'IGNORED';
    return decision.kind === 'ACCEPT' ? 'ACCEPTED' : 'NEEDS_REVIEW';
  }

  /** Writes the decision, if the booking still holds the same order and a ticket; its event in the same transaction. */
  private async record(
    b: BookingRow,
    change: DuffelAirlineChange,
    decision: Exclude<AirlineChangeDecision, { kind: 'IGNORE' }>,
  ): Promise<boolean> {
    const events = await this.deps.db.transaction().execute(async (trx) => {
      const current = await bookingRepo.lockBooking(trx, b.booking_id);
      const block = current?.flight ?? null;
      if (
        !current ||
        block?.supplier_ref !== change.order_id ||
        (current.status !== 'CONFIRMED' && current.status !== 'MODIFIED')
      )
        return null;
      if (decision.kind === 'ACCEPT') {
        const f = decision.flight;
        await bookingRepo.updateBooking(
          trx,
          b.booking_id,
          { status: current.status, flight: acceptedFlightBlock(block, f) },
          {
            reason: `accepted the airline's change ${change.id}: ${f.flight_number} ${f.dep_time} to ${f.arr_time}`,
            actor: 'engine',
          },
        );
        return 0;
      }
      await bookingRepo.updateBooking(
        trx,
        b.booking_id,
        { status: 'NEEDS_REVIEW', review_reason: decision.reason, flight: { ...block, airline_change_id: change.id } },
        { reason: decision.reason, actor: 'engine' },
      );
      const item = current.action_id
        ? await bookingRepo.setDisposition(
            trx,
            current.action_id,
            'PENDING_REVIEW',
            { message: decision.reason, recommended_action: decision.recommended_action },
            // Back with the desk: OPEN again, due by its departure less the lead time.
            storedReviewStateOf,
          )
        : undefined;
      return webhookRepo.emitBookingEvents(
        trx,
        [b.booking_id],
        urgentEvents(item?.priority as TaskPriority | undefined),
        BOOKING_EVENT_STATUSES,
      );
    });
    if (events) this.deps.webhookKick?.();
    return events !== null;
  }

  /**
   * The backstop for lost or never-registered webhooks: for each airline connected to Duffel, register its
   * webhook if it has none, then list the changes of its live Duffel deadheads (soonest duties first, at most
   * `sweepLimitPerAirline` orders, so one pass costs a bounded number of Duffel reads).
   */
  async sweep(): Promise<{ airlines: number; orders: number; changes: number }> {
    // A shutdown ends a pass between Duffel calls: what it did not look at, the next process's pass does.
    const today = (this.deps.now?.() ?? new Date()).toISOString().slice(0, 10);
    const limit = this.deps.sweepLimitPerAirline ?? 100;
    const totals = { airlines: 0, orders: 0, changes: 0 };
    for (const row of await airlineChangeRepo.duffelConnectedAirlines(this.deps.db)) {
      if (this.stopping) break;
      totals.airlines++;
      try {
        const token = this.keyring.open(row.duffel_token_sealed!, row.airline_id);
        if (row.duffel_webhook_id === null) await this.registerWebhook(row.airline_id, row.duffel_token_sealed!, token);
        const client = this.client(token);
        for (const b of await airlineChangeRepo.liveDuffelBookings(this.deps.db, row.airline_id, today, limit)) {
          if (this.stopping) break;
          totals.orders++;
          for (const change of await client.listChanges(b.supplier_ref)) {
            if (change.action_taken !== null) continue;
            totals.changes++;
            await this.apply(row.airline_id, client, change);
          }
        }
      } catch (err) {
        // One airline's outage or refusal never stops the others; the next pass tries again.
        this.deps.logger.warn(
          { airline_id: row.airline_id, code: isSupplierError(err) ? err.code : 'ERROR' },
          'airline-change check of an airline failed',
        );
      }
    }
    return totals;
  }

  /** Shutdown: a check under way stops before its next Duffel call. */
  stop(): void {
    this.stopping = true;
  }

  private async deleteUnrecorded(airlineId: string, token: string, webhookId: string): Promise<void> {
    try {
      await this.client(token).deleteWebhook(webhookId);
    } catch (err) {
      this.deps.logger.warn(
        { airline_id: airlineId, webhook_id: webhookId, code: isSupplierError(err) ? err.code : 'ERROR' },
        'Duffel webhook registered but not recorded (another registration won) and not deleted; delete it in the Duffel dashboard',
      );
    }
  }

  private async registerWebhook(airlineId: string, tokenSealed: string, token: string): Promise<void> {
    const register =
      this.deps.registerWebhook ??
      ((t: string, url: string) => registerDuffelWebhook(this.deps.config.duffelApiUrl, t, url));
    try {
      const hook = await register(token, duffelCallbackUrl(this.deps.config.publicApiUrl, airlineId));
      const saved = await airlineChangeRepo.saveDuffelWebhook(
        this.deps.db,
        airlineId,
        tokenSealed,
        hook.id,
        this.keyring.seal(hook.secret, airlineId),
      );
      // A PUT recorded one meanwhile (or changed the token): this one is deleted at Duffel again (left there, its
      // events would fail our signature check).
      if (!saved) await this.deleteUnrecorded(airlineId, token, hook.id);
    } catch (err) {
      this.deps.logger.warn(
        { airline_id: airlineId, code: isSupplierError(err) ? err.code : 'ERROR' },
        'Duffel webhook registration failed; the next check tries again',
      );
    }
  }
}

function factsOf(b: BookingRow): ChangedBookingFacts {
  return {
    status: b.status,
    from_airport: b.from_airport,
    to_airport: b.to_airport,
    dep_time_local: b.dep_time_local,
    arr_time_local: b.arr_time_local,
    flight: b.flight,
  };
}
