import { Type } from '@sinclair/typebox';
import {
  MAX_WEBHOOK_ENDPOINTS,
  requiredScope,
  RotateSecretBody,
  WebhookDelivery,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointBody,
  WebhookEndpointParams,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
  WebhookListQuery,
} from '@crew/contracts';
import { webhookRepo, type Db, type WebhookDeliveryRow, type WebhookEndpointRow } from '@crew/db';
import { ApiError, errorResponses, keysetPage, route, seqCursor, type Config, type RouteSpec } from '@crew/platform';
import {
  newWebhookSecret,
  openSecret,
  parseSecretKey,
  refusedUrl,
  sealSecret,
  visibleAttemptError,
} from '@crew/webhooks';
import { principal } from '../auth/guard';

const TAGS = ['Webhooks'];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function endpointView(e: WebhookEndpointRow) {
  return {
    endpoint_id: e.endpoint_id,
    url: e.url,
    description: e.description,
    event_types: e.event_types as WebhookEndpointBody['event_types'],
    enabled: e.enabled,
    disabled_reason: e.disabled_reason,
    failing_since: iso(e.failing_since),
    previous_secret_expires_at:
      e.previous_secret_expires_at && e.previous_secret_expires_at.getTime() > Date.now()
        ? e.previous_secret_expires_at.toISOString()
        : null,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

export function deliveryView(d: WebhookDeliveryRow & { event_type: string }) {
  return {
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    last_response_code: d.last_response_code,
    last_error: visibleAttemptError(d.last_error),
    next_attempt_at: d.status === 'PENDING' ? d.next_attempt_at.toISOString() : null,
    delivered_at: iso(d.delivered_at),
    created_at: d.created_at.toISOString(),
    attempt_log: d.attempt_log.map((a) => ({ ...a, error: visibleAttemptError(a.error) })),
  };
}

/** /crew/webhooks: an airline's webhook endpoints and their deliveries. */
export function webhookRoutes(db: Db, config: Config): RouteSpec[] {
  const path = '/crew/webhooks';
  const key = parseSecretKey(config.webhookSecretKey)!;
  const policy = { allowPrivate: config.webhookAllowPrivateTargets, production: config.nodeEnv === 'production' };
  const checkUrl = (url: string) => {
    const why = refusedUrl(policy, url);
    if (why) throw ApiError.validation([{ field: 'body.url', issue: why }], 'The URL cannot receive webhooks');
  };
  const opens = (sealed: string) => {
    try {
      openSecret(key, sealed);
      return true;
    } catch {
      return false;
    }
  };
  const endpointOr404 = async (airlineId: string, endpointId: string) => {
    const e = await webhookRepo.findEndpoint(db, airlineId, endpointId);
    if (!e) throw ApiError.notFound('Webhook endpoint');
    return e;
  };
  return [
    route({
      method: 'post',
      path,
      operationId: 'createWebhookEndpoint',
      description:
        'Registers an endpoint for the given event types. The URL must be https (http only to a loopback host outside production), without credentials, and its host must not be a literal private, loopback or link-local address unless the operator allows it (WEBHOOK_ALLOW_PRIVATE_TARGETS): 422 otherwise. A host name is checked when each delivery connects: one that does not resolve to a public address fails the attempt (`target refused` in `last_error`). The signing secret (`whsec_…`) is in this answer only; it is stored encrypted. Events are recorded only while an enabled endpoint subscribes to their type. An airline has at most ' +
        `${MAX_WEBHOOK_ENDPOINTS} endpoints, enabled or not (one endpoint may subscribe to every type): 409 CONFLICT beyond that; delete one first.`,
      summary: 'Register a webhook endpoint (its signing secret is shown once, in this answer)',
      tags: TAGS,
      auth: requiredScope('post', path),
      body: WebhookEndpointBody,
      responses: {
        201: { description: 'The endpoint, with its secret', schema: WebhookEndpointWithSecret },
        ...errorResponses([401, 403, 409, 422]),
      },
      handler: async ({ res, body }) => {
        checkUrl(body.url);
        const airlineId = principal(res).airline_id;
        const secret = newWebhookSecret();
        const e = await db.transaction().execute(async (trx) => {
          // Under the airline's lock: two creations at once cannot both take the last place.
          await webhookRepo.lockAirlineEndpoints(trx, airlineId);
          if ((await webhookRepo.countEndpoints(trx, airlineId)) >= MAX_WEBHOOK_ENDPOINTS)
            throw ApiError.conflict(
              `The airline has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most it may have; delete one first (one endpoint may subscribe to every event type)`,
            );
          return webhookRepo.insertEndpoint(trx, {
            airline_id: airlineId,
            url: body.url,
            description: body.description ?? null,
            event_types: body.event_types,
            secret_enc: sealSecret(key, secret),
          });
        });
        return { status: 201, body: { ...endpointView(e), secret } };
      },
    }),
    route({
      method: 'get',
      path,
      operationId: 'listWebhookEndpoints',
      description: 'The airline’s endpoints, oldest first, without secrets; keyset pages (`limit`, `cursor`).',
      summary: "The airline's webhook endpoints, oldest first",
      tags: TAGS,
      auth: requiredScope('get', path),
      query: WebhookListQuery,
      responses: {
        200: {
          description: 'Endpoints',
          schema: Type.Object({
            webhooks: Type.Array(WebhookEndpoint),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
        },
        ...errorResponses([400, 401, 403]),
      },
      handler: async ({ res, query }) => {
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await webhookRepo.listEndpoints(db, principal(res).airline_id, limit + 1, seqCursor(query.cursor)),
          limit,
        );
        return { status: 200, body: { webhooks: p.rows.map(endpointView), next_cursor: p.next_cursor } };
      },
    }),
    route({
      method: 'get',
      path: `${path}/:endpoint_id`,
      operationId: 'getWebhookEndpoint',
      description:
        'One endpoint, without its secret. `failing_since` shows an unbroken run of failed attempts, ended by a success or by a delivery given up with none left waiting; an endpoint failing for WEBHOOK_DISABLE_AFTER_DAYS (default 5) is disabled (`enabled` false, `disabled_reason`).',
      summary: 'One webhook endpoint',
      tags: TAGS,
      auth: requiredScope('get', path),
      params: WebhookEndpointParams,
      responses: { 200: { description: 'The endpoint', schema: WebhookEndpoint }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => ({
        status: 200,
        body: endpointView(await endpointOr404(principal(res).airline_id, params.endpoint_id)),
      }),
    }),
    route({
      method: 'patch',
      path: `${path}/:endpoint_id`,
      operationId: 'updateWebhookEndpoint',
      description:
        'Changes any of url, event_types, description, enabled. `enabled: true` re-enables an endpoint the service disabled; its pending deliveries resume in order at once, whatever backoff they were waiting out, and so do they when the `url` changes.',
      summary: 'Change a webhook endpoint (URL, event types, description, enabled)',
      tags: TAGS,
      auth: requiredScope('patch', path),
      params: WebhookEndpointParams,
      body: WebhookEndpointPatch,
      responses: {
        200: { description: 'The endpoint', schema: WebhookEndpoint },
        ...errorResponses([401, 403, 404, 422]),
      },
      handler: async ({ res, params, body }) => {
        if (body.url !== undefined) checkUrl(body.url);
        const reenable = body.enabled === true ? { disabled_reason: null, failing_since: null } : {};
        const e = await webhookRepo.updateEndpoint(db, principal(res).airline_id, params.endpoint_id, {
          ...body,
          ...reenable,
        });
        if (!e) throw ApiError.notFound('Webhook endpoint');
        return { status: 200, body: endpointView(e) };
      },
    }),
    route({
      method: 'delete',
      path: `${path}/:endpoint_id`,
      operationId: 'deleteWebhookEndpoint',
      description:
        'Deletes the endpoint with its deliveries; nothing more is sent to it. Its events are deleted with the rest of the webhook history, past WEBHOOK_RETENTION_DAYS.',
      summary: 'Delete a webhook endpoint and its pending deliveries',
      tags: TAGS,
      auth: requiredScope('delete', path),
      params: WebhookEndpointParams,
      responses: { 204: { description: 'Deleted' }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        if (!(await webhookRepo.deleteEndpoint(db, principal(res).airline_id, params.endpoint_id)))
          throw ApiError.notFound('Webhook endpoint');
        return { status: 204 };
      },
    }),
    route({
      method: 'post',
      path: `${path}/:endpoint_id/rotate-secret`,
      operationId: 'rotateWebhookSecret',
      description:
        'Makes a new secret (shown once in this answer). For `grace_period_seconds` (default 24 h) every request carries two signatures, one per secret, so receivers can switch without losing events; an old secret the service can no longer read (deliveries failing with `secret unavailable`) is dropped at once instead. Pending deliveries waiting out a backoff are sent at once.',
      summary:
        'Replace the signing secret; the previous one keeps signing too for a grace period (the new secret is shown once)',
      tags: TAGS,
      auth: requiredScope('post', path),
      params: WebhookEndpointParams,
      body: RotateSecretBody,
      responses: {
        200: { description: 'The endpoint, with its new secret', schema: WebhookEndpointWithSecret },
        ...errorResponses([401, 403, 404, 422]),
      },
      handler: async ({ res, params, body }) => {
        const airlineId = principal(res).airline_id;
        const current = await endpointOr404(airlineId, params.endpoint_id);
        const secret = newWebhookSecret();
        // The old secret keeps signing through the grace period only if it can: one sealed under another
        // WEBHOOK_SECRET_KEY (the reason to rotate, often) would fail every delivery meanwhile.
        const grace = opens(current.secret_enc) ? (body.grace_period_seconds ?? config.webhookRotationGraceSeconds) : 0;
        const e = await webhookRepo.updateEndpoint(db, airlineId, params.endpoint_id, {
          secret_enc: sealSecret(key, secret),
          previous_secret_enc: grace > 0 ? current.secret_enc : null,
          previous_secret_expires_at: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
        });
        if (!e) throw ApiError.notFound('Webhook endpoint');
        return { status: 200, body: { ...endpointView(e), secret } };
      },
    }),
    route({
      method: 'post',
      path: `${path}/:endpoint_id/test`,
      operationId: 'sendWebhookTestEvent',
      description:
        'Queues a `webhook.test` event for this endpoint only, whatever it subscribes to; it is delivered, signed and listed like any other. 409 when the endpoint is disabled.',
      summary: 'Send a webhook.test event to this endpoint (whatever it subscribes to)',
      tags: TAGS,
      auth: requiredScope('post', path),
      params: WebhookEndpointParams,
      responses: {
        202: {
          description: 'The test event was queued for delivery',
          schema: Type.Object(
            { event_id: Type.String({ format: 'uuid' }) },
            { additionalProperties: false, title: 'WebhookTestQueued' },
          ),
        },
        ...errorResponses([401, 403, 404, 409]),
      },
      handler: async ({ res, params }) => {
        const airlineId = principal(res).airline_id;
        const e = await endpointOr404(airlineId, params.endpoint_id);
        if (!e.enabled) throw ApiError.conflict('The endpoint is disabled; enable it first (PATCH enabled: true)');
        const eventId = await webhookRepo.emitToEndpoints(db, airlineId, [e.endpoint_id], {
          type: 'webhook.test',
          data: { endpoint_id: e.endpoint_id, message: 'A test event, sent on request' },
          links: { endpoint: `/api/v1${path}/${e.endpoint_id}` },
          urgent: true,
        });
        if (!eventId) throw ApiError.conflict('The endpoint is disabled; enable it first (PATCH enabled: true)');
        return { status: 202, body: { event_id: eventId } };
      },
    }),
    route({
      method: 'get',
      path: `${path}/:endpoint_id/deliveries`,
      operationId: 'listWebhookDeliveries',
      description:
        'The endpoint’s deliveries, newest first: status (PENDING, SUCCEEDED, FAILED after the whole backoff schedule), attempts, last response code and error, next attempt, and every attempt. `status` filters. A SUCCEEDED or FAILED delivery is kept for WEBHOOK_RETENTION_DAYS (default 30) after its event was written, then deleted; a PENDING one stays until it is sent or given up.',
      summary: "An endpoint's deliveries, newest first, with their attempts",
      tags: TAGS,
      auth: requiredScope('get', path),
      params: WebhookEndpointParams,
      query: WebhookDeliveryQuery,
      responses: {
        200: {
          description: 'Deliveries',
          schema: Type.Object({
            deliveries: Type.Array(WebhookDelivery),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
        },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        await endpointOr404(principal(res).airline_id, params.endpoint_id);
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await webhookRepo.listDeliveries(db, params.endpoint_id, limit + 1, seqCursor(query.cursor), query.status),
          limit,
        );
        return { status: 200, body: { deliveries: p.rows.map(deliveryView), next_cursor: p.next_cursor } };
      },
    }),
    route({
      method: 'post',
      path: `${path}/:endpoint_id/deliveries/:delivery_id/redeliver`,
      operationId: 'redeliverWebhook',
      description:
        'Makes the delivery due now with a fresh attempt budget (same event, same `webhook-id`); its attempt log is kept. A delivery past its retention (WEBHOOK_RETENTION_DAYS, default 30, after its event) has been deleted: 404.',
      summary: 'Send a delivery again now (same event id), with a fresh attempt budget',
      tags: TAGS,
      auth: requiredScope('post', path),
      params: WebhookDeliveryParams,
      responses: {
        202: { description: 'The delivery, PENDING again', schema: WebhookDelivery },
        ...errorResponses([401, 403, 404]),
      },
      handler: async ({ res, params }) => {
        await endpointOr404(principal(res).airline_id, params.endpoint_id);
        if (!(await webhookRepo.redeliver(db, params.endpoint_id, params.delivery_id)))
          throw ApiError.notFound('Webhook delivery');
        return {
          status: 202,
          body: deliveryView((await webhookRepo.findDelivery(db, params.endpoint_id, params.delivery_id))!),
        };
      },
    }),
  ];
}
