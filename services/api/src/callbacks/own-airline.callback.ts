/**
 * `POST /callbacks/own-airline/{airline_id}`: the airline's own reservation system completes a crew-seat
 * request it answered 202 (docs/own-airline.md). Signed with the airline's signing secret (Standard
 * Webhooks), so no bearer: the signature is the credential. The answer is stored on the booking and its
 * task resumed through the outbox; the worker settles it like any other answer. Idempotent: a repeat after
 * the booking settled is acknowledged and changes nothing, and so is a callback naming another reference
 * than the outstanding request's (a late answer to an earlier request on the same booking). A callback that
 * overtakes the worker's record of its request is 503 with Retry-After, so that the airline sends it again.
 */
import express, { type Router } from 'express';
import { bookingRepo, outboxRepo, supplierSettingsRepo, type Db } from '@crew/db';
import { AirlineIdParams, isUuid, type RouteDoc } from '@crew/contracts';
import { Keyring, type Config, type Logger } from '@crew/platform';
import { bookingJob, type OutboxRelay } from '@crew/queue';
import { OwnAirlineCallbackError, OwnAirlineClient, type OwnAirlineCallback } from '@crew/suppliers';

/** The route as the OpenAPI document describes it (no bearer: the Standard Webhooks signature is the credential). */
export const OWN_AIRLINE_CALLBACK_ROUTES: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/callbacks/own-airline/:airline_id',
    operationId: 'ownAirlineCallback',
    summary: "The airline's own reservation system completes a crew-seat request it answered 202",
    description:
      'Signed with the airline’s signing secret (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`); body `{type: crew_seat.ticketed | crew_seat.refused, reference, booking_id, pnr?, ticket_id?, flight?: {dep_time?, arr_time?, cabin?}, reason?}` (docs/own-airline.md); a ticketed seat’s flight times and cabin go on the booking’s `flight` block. ' +
      'A bad signature is 401; a signed body that cannot be read (a missing field, a flight time that is not an ISO 8601 date-time with an offset) 400 naming it, nothing stored; an unknown booking 404; a repeat after the booking settled, or a callback whose `reference` is not the outstanding request’s, is acknowledged and changes nothing. ' +
      'A callback that arrives before the booking has recorded its request (the 202 and the callback raced) is 503 with `Retry-After`: send it again.',
    tags: ['Operator API'],
    auth: 'none',
    params: AirlineIdParams,
    responses: {
      200: { description: 'Received' },
      400: { description: 'Signed, but the body cannot be read: nothing stored; send it again corrected' },
      401: { description: 'Not signed by this airline’s own system' },
      404: { description: 'Booking not found' },
      503: { description: 'The booking has not recorded the request yet: send the callback again after Retry-After' },
    },
  },
];

/** Seconds the airline waits before sending again a callback that overtook our record of its request. */
const NOT_REQUESTED_RETRY_AFTER_S = 2;

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const problem = (status: number, code: string, message: string) => ({
  status,
  body: { error: { code, message, details: [] }, status },
});

export function ownAirlineCallbacks(deps: { db: Db; config: Config; logger: Logger; relay: OutboxRelay }): Router {
  const keyring = Keyring.parse(deps.config.supplierCredentialsKey);
  const log = deps.logger.child({ component: 'own-airline-callback' });
  const router = express.Router();
  router.post(
    '/callbacks/own-airline/:airline_id',
    express.raw({ type: () => true, limit: '64kb' }),
    async (req, res, next) => {
      try {
        const answer = await handle(req.params.airline_id ?? '', req.body as Buffer, req.headers);
        res
          .status(answer.status)
          .set(answer.headers ?? {})
          .json(answer.body);
      } catch (err) {
        next(err);
      }
    },
  );

  async function handle(
    airlineId: string,
    raw: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<Answer> {
    const unauthorized = problem(401, 'UNAUTHORIZED', 'The callback is not signed by this airline’s own system');
    if (!isUuid(airlineId)) return unauthorized;
    const setting = await supplierSettingsRepo.findSupplierSettings(deps.db, airlineId);
    if (!setting?.own_airline_url || !setting.own_airline_carrier || !setting.own_airline_secret_sealed)
      return unauthorized;
    let callback: OwnAirlineCallback;
    try {
      const signingSecret = keyring.open(setting.own_airline_secret_sealed, airlineId);
      callback = new OwnAirlineClient({
        url: setting.own_airline_url,
        carrier: setting.own_airline_carrier,
        signingSecret,
      }).verifyCallback(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0), headers);
    } catch (err) {
      // Signed by the airline, but a body we cannot read (a missing pnr, a malformed flight time): 400 naming what is
      // wrong, nothing stored (a 401 would send the airline to check a secret that is right).
      if (err instanceof OwnAirlineCallbackError && err.unreadable)
        return problem(
          400,
          'INVALID_REQUEST',
          `The callback cannot be read: ${err.message.replace(/^own airline callback unreadable: /, '')}`,
        );
      return unauthorized;
    }
    const webhookId =
      String(headers['webhook-id'] ?? '')
        .replace(/[^A-Za-z0-9_-]/g, '')
        .slice(0, 64) || 'callback';
    const resumed = await deps.db.transaction().execute(async (trx) => {
      const b = isUuid(callback.booking_id) ? await bookingRepo.lockBooking(trx, callback.booking_id) : undefined;
      if (!b || b.airline_id !== airlineId || b.type !== 'FLIGHT') return 'unknown' as const;
      const flight = b.flight ?? {};
      const own = flight.supplier === 'OWN_AIRLINE';
      // Stored with the reference it answers (a request stored without one included): the worker settles from
      // an answer to its own request only. The booked flight's times and cabin are the ones this answer gives
      // (an earlier seat's, before a rebook, are not this one's); what it leaves out the worker fills from the
      // request (the rostered departure) or defaults.
      const {
        dep_time: _dep,
        arr_time: _arr,
        cabin: _cabin,
        ...request
      } = {
        ...flight,
        request_reference: callback.reference,
      };
      const answered =
        callback.type === 'crew_seat.ticketed'
          ? {
              ...request,
              supplier_status: 'CONFIRMED' as const,
              pnr: callback.pnr,
              ticket_id: callback.ticket_id,
              ...callback.flight,
            }
          : { ...request, supplier_status: 'REFUSED' as const, supplier_reason: callback.reason };
      const event = { reason: `the airline's own system answered: ${callback.type}`, actor: 'own-airline' };
      if (b.status !== 'PENDING') {
        // The task that asked was superseded (a roster change put the leg in review, say): its answer is still
        // written on the booking, so whoever cancels the seat or keeps it knows its PNR. Otherwise a repeat (or
        // a late answer to an earlier request) is acknowledged.
        if (own && flight.supplier_status === 'REQUESTED' && flight.request_reference === callback.reference) {
          await bookingRepo.updateBooking(trx, b.booking_id, { flight: answered }, event);
          return { outcome: 'recorded' as const, status: b.status };
        }
        return { outcome: 'settled' as const };
      }
      if (!own || flight.supplier_status !== 'REQUESTED') {
        // A repeat of the answer already stored, whose task has not settled yet.
        if (own && flight.request_reference === callback.reference) return { outcome: 'settled' as const };
        // The callback overtook the worker's record of the request (it writes REQUESTED after the 202): the
        // airline asks again later, when the booking waits for it. A 2xx here would lose the answer for good.
        return { outcome: 'not_requested' as const };
      }
      // An answer to an earlier request on this booking (before a rebook) must not settle the newer one. A
      // request stored without its reference (by a worker of the previous release) takes any answer, as before.
      if (flight.request_reference !== undefined && flight.request_reference !== callback.reference)
        return { outcome: 'other_request' as const, outstanding_reference: flight.request_reference };
      await bookingRepo.updateBooking(trx, b.booking_id, { flight: answered }, event);
      await outboxRepo.addToOutbox(trx, [
        bookingJob({
          airline_id: b.airline_id,
          booking_id: b.booking_id,
          attempt: b.retry_count + 1,
          action_id: b.action_id,
          operation: b.task_operation ?? 'BOOK',
          ...(b.task_ref ? { ref: b.task_ref } : {}),
          type: 'FLIGHT',
          resume: webhookId,
        }),
      ]);
      return { outcome: 'resumed' as const };
    });
    if (resumed === 'unknown') return problem(404, 'NOT_FOUND', 'Booking not found');
    if (resumed.outcome === 'resumed') deps.relay.kick();
    const line = {
      airline_id: airlineId,
      booking_id: callback.booking_id,
      type: callback.type,
      reference: callback.reference,
      ...resumed,
    };
    // A seat ticketed for a booking no task waits on (in review, or cancelled meanwhile): a person must act.
    if (resumed.outcome === 'other_request' || resumed.outcome === 'recorded') log.warn(line, 'own-airline callback');
    else log.info(line, 'own-airline callback');
    if (resumed.outcome === 'not_requested')
      return {
        ...problem(
          503,
          'SERVICE_UNAVAILABLE',
          'The booking has not recorded the request this callback answers yet; send it again after Retry-After',
        ),
        headers: { 'Retry-After': String(NOT_REQUESTED_RETRY_AFTER_S) },
      };
    return { status: 200, body: { received: true } };
  }
  return router;
}
