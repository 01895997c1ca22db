/**
 * Duffel's webhook deliveries for an airline (`POST /callbacks/duffel/{airline_id}`, the URL registered with
 * the airline's token). No bearer: the signature with the webhook's secret is the credential, over the exact
 * bytes received, so the body is read raw. The api stays thin: a verified event naming an airline-initiated
 * change becomes a job for the worker, which reads the change from Duffel itself and decides.
 */
import express, { type Router } from 'express';
import { outboxRepo, supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config, type Logger } from '@crew/platform';
import { airlineChangeJob, type OutboxRelay } from '@crew/queue';
import { DUFFEL_SIGNATURE_HEADER, parseDuffelEvent, verifyDuffelSignature } from '@crew/suppliers';

export const DUFFEL_CALLBACK_PATH = '/callbacks/duffel/:airline_id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      const setting = UUID.test(airlineId) ? await supplierSettingsRepo.findSupplierSettings(deps.db, airlineId) : undefined;
      const secret = setting?.duffel_webhook_secret_sealed ? keyring.open(setting.duffel_webhook_secret_sealed, airlineId) : null;
      // One answer for an unknown airline, one without a webhook and a wrong signature: nothing to probe with.
      if (!secret || !verifyDuffelSignature(raw, req.get(DUFFEL_SIGNATURE_HEADER), secret)) {
        log.warn({ airline_id: airlineId }, 'Duffel callback refused: signature not verified');
        res.status(401).json({ error: { code: 'UNAUTHORIZED', message: 'The delivery is not signed with this airline’s Duffel webhook secret', details: [] }, status: 401 });
        return;
      }
      const event = parseDuffelEvent(raw);
      if (!event) {
        res.status(400).json({ error: { code: 'VALIDATION_FAILED', message: 'The body is not a Duffel event', details: [] }, status: 400 });
        return;
      }
      // Other event types are acknowledged and dropped: Duffel retries anything but a 2xx.
      if (event.type === 'order.airline_initiated_change_detected' && event.object_id && event.order_id) {
        await outboxRepo.addToOutbox(deps.db, [airlineChangeJob({ airline_id: airlineId, supplier: 'DUFFEL', order_id: event.order_id, change_id: event.object_id, event_id: event.id })]);
        deps.relay.kick();
        log.info({ airline_id: airlineId, event_id: event.id, change_id: event.object_id }, 'airline-initiated change queued');
      }
      res.status(200).json({ received: true });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
