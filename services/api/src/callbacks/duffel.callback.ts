/**
 * Duffel's webhook deliveries for an airline (`POST /callbacks/duffel/{airline_id}`, the URL registered with
 * the airline's token). No bearer: the signature with the webhook's secret is the credential, over the exact
 * bytes received, so the body is read raw. The api stays thin: a verified event naming an airline-initiated
 * change becomes a job for the worker, which reads the change from Duffel itself and decides; an announced
 * order is recorded, so a booking whose ordering call timed out reads it before it scans Duffel's order list.
 */
import { Type } from '@sinclair/typebox';
import express, { type Router } from 'express';
import { errorResponses, isUuid, type RouteDoc } from '@crew/contracts';
import { orderSightingRepo, outboxRepo, supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config, type Logger } from '@crew/platform';
import { airlineChangeJob, type OutboxRelay } from '@crew/queue';
import { DUFFEL_SIGNATURE_HEADER, parseDuffelEvent, verifyDuffelSignature } from '@crew/suppliers';

export const DUFFEL_CALLBACK_PATH = '/callbacks/duffel/:airline_id';

/** The callback as the OpenAPI document describes it (no bearer: Duffel's signature is the credential). */
export const DUFFEL_CALLBACK_ROUTES: readonly RouteDoc[] = [
  {
    method: 'post',
    path: DUFFEL_CALLBACK_PATH,
    operationId: 'duffelWebhookCallback',
    summary: 'Duffel’s webhook deliveries for an airline (registered when the operator sets its Duffel token)',
    description:
      'Signed by Duffel with the webhook’s secret (`X-Duffel-Signature: t=…,v1=…` over the raw body, five minutes’ tolerance); anything else is 401. ' +
      '`order.airline_initiated_change_detected` queues the named change for the worker, which reads it from Duffel and accepts it or sends the booking to review; `order.created` records the order, which a booking whose order call timed out reads first (before Duffel’s order list) to find its ticket; other event types are acknowledged and ignored.',
    tags: ['Supplier callbacks'],
    auth: 'none',
    params: Type.Object({ airline_id: Type.String({ format: 'uuid' }) }),
    responses: {
      200: { description: 'Received', schema: Type.Object({ received: Type.Boolean() }) },
      ...errorResponses([400, 401]),
    },
  },
];

export interface DuffelCallbackDeps {
  db: Db;
  config: Config;
  logger: Logger;
  relay: Pick<OutboxRelay, 'kick'>;
}

export function duffelCallback(deps: DuffelCallbackDeps): Router {
  const keyring = Keyring.parse(deps.config.supplierCredentialsKey);
  const log = deps.logger.child({ component: 'duffel-callback' });
  const router = express.Router();
  router.post(DUFFEL_CALLBACK_PATH, express.raw({ type: () => true, limit: '256kb' }), async (req, res, next) => {
    try {
      const airlineId = String(req.params.airline_id);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const setting = isUuid(airlineId)
        ? await supplierSettingsRepo.findSupplierSettings(deps.db, airlineId)
        : undefined;
      const secret = setting?.duffel_webhook_secret_sealed
        ? keyring.open(setting.duffel_webhook_secret_sealed, airlineId)
        : null;
      // One answer for an unknown airline, one without a webhook and a wrong signature: nothing to probe with.
      if (!secret || !verifyDuffelSignature(raw, req.get(DUFFEL_SIGNATURE_HEADER), secret)) {
        log.warn({ airline_id: airlineId }, 'Duffel callback refused: signature not verified');
        res.status(401).json({
          error: {
            code: 'UNAUTHORIZED',
            message: 'The delivery is not signed with this airline’s Duffel webhook secret',
            details: [],
          },
          status: 401,
        });
        return;
      }
      const event = parseDuffelEvent(raw);
      if (!event) {
        res.status(400).json({
          error: { code: 'VALIDATION_FAILED', message: 'The body is not a Duffel event', details: [] },
          status: 400,
        });
        return;
      }
      // Other event types are acknowledged and dropped: Duffel retries anything but a 2xx.
      if (event.type === 'order.airline_initiated_change_detected' && event.object_id && event.order_id) {
        await outboxRepo.addToOutbox(deps.db, [
          airlineChangeJob({
            airline_id: airlineId,
            supplier: 'DUFFEL',
            order_id: event.order_id,
            change_id: event.object_id,
            event_id: event.id,
          }),
        ]);
        deps.relay.kick();
        log.info(
          { airline_id: airlineId, event_id: event.id, change_id: event.object_id },
          'airline-initiated change queued',
        );
      }
      if (event.type === 'order.created' && event.object_id) {
        await orderSightingRepo.recordOrderSighting(deps.db, {
          airline_id: airlineId,
          supplier: 'DUFFEL',
          supplier_ref: event.object_id,
          reference: event.reference,
          event_id: event.id,
        });
        log.info({ airline_id: airlineId, event_id: event.id, order_id: event.object_id }, 'Duffel order announced');
      }
      res.status(200).json({ received: true });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
