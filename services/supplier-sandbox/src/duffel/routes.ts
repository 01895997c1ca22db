/**
 * The Duffel dialect over HTTP, mounted at `/duffel/` (point `@duffel/api`'s basePath there): Duffel's
 * envelopes (`{data}`, `{data, meta}` for lists, `{errors, meta}`), bearer tokens, faults per token;
 * `air/webhooks` and `air/airline_initiated_changes` keep their state in ./changes.
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Airline, CreateOfferRequest, CreateOrder, Offer, OfferRequest, Order } from '@duffel/api/types';
import type { CallHolds, Withholder } from '../routes';
import { AIRLINES } from './inventory';
import { changesOf } from './changes';
import type { DuffelSim, SimCancellation } from './sim';
import { DuffelSimError, notFound, validation } from './sim-errors';
import { DUFFEL_OPERATIONS, DUFFEL_OUTCOMES, type DuffelOperation } from './sim-faults';
import type { DuffelOp } from './operation';
import { staysControlRoutes, staysRoutes } from './stays-routes';
import { one, page } from './envelope';

/** Duffel answers errors as `{errors: [...], meta: {status, request_id}}`. */
function sendError(res: Response, err: DuffelSimError): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.status(err.status).json({
    errors: [
      {
        type: err.type,
        code: err.code,
        title: err.title,
        message: err.message,
        documentation_url: `https://duffel.com/docs/api/overview/response-handling#${err.code}`,
      },
    ],
    meta: { status: err.status, request_id: randomUUID() },
  });
}

function bearer(req: Request, sim: DuffelSim): string {
  const match = /^Bearer (duffel_(?:test|live)_[A-Za-z0-9_\-=.]+)$/.exec(req.headers.authorization ?? '');
  if (!match?.[1])
    throw new DuffelSimError(
      401,
      'authentication_error',
      'invalid_authorization_header',
      'Unauthorized',
      'The Authorization header must be `Bearer <your access token>`',
    );
  if (sim.isRefused(match[1]))
    throw new DuffelSimError(
      401,
      'authentication_error',
      'access_token_not_found',
      'Unauthorized',
      'The access token was not recognised',
    );
  if (req.headers['duffel-version'] !== 'v2')
    throw new DuffelSimError(
      400,
      'invalid_request_error',
      'unsupported_version',
      'Unsupported version',
      'Send the Duffel-Version header (v2)',
    );
  return match[1];
}

function rateLimited(retryAfterS: number): DuffelSimError {
  // Duffel's window reset is wall-clock (an HTTP date), whatever the simulation's clock says.
  const reset = new Date(Date.now() + retryAfterS * 1000).toUTCString();
  return new DuffelSimError(
    429,
    'rate_limit_error',
    'rate_limit_exceeded',
    'Rate limit exceeded',
    'Too many requests; wait for the rate limit window to reset',
    {
      'ratelimit-limit': '60',
      'ratelimit-remaining': '0',
      'ratelimit-reset': reset,
    },
  );
}

const serverError = () =>
  new DuffelSimError(500, 'api_error', 'internal_server_error', 'Internal server error', 'Something went wrong');

/** Offer the fault touches (price_moved, offer_gone): named in the path or the order's selected offer. */
function offerIdOf(req: Request): string | undefined {
  const body = (req.body as { data?: { selected_offers?: unknown } } | undefined)?.data;
  const selected: unknown = Array.isArray(body?.selected_offers) ? (body.selected_offers as unknown[])[0] : undefined;
  return typeof req.params.id === 'string' ? req.params.id : typeof selected === 'string' ? selected : undefined;
}

export function duffelRouter(sim: DuffelSim, withholder: Withholder, holds: CallHolds): Router {
  const router = express.Router();
  router.use(express.json());

  /** One Duffel operation under the oldest fault armed for it on this token. */
  const op: DuffelOp = (operation, handler) => async (req, res, next) => {
    try {
      const token = bearer(req, sim);
      sim.countCall(token, operation);
      const fault = sim.takeFault(token, operation);
      const offerId = offerIdOf(req);
      switch (fault?.outcome) {
        case 'rate_limited':
          throw rateLimited(fault.retry_after_s ?? 2);
        case 'error':
          if (fault.after_effect) handler(req, token, fault);
          throw serverError();
        case 'insufficient_balance':
          throw new DuffelSimError(
            422,
            'invalid_state_error',
            'insufficient_balance',
            'Insufficient balance',
            'Your Duffel balance does not cover this payment',
          );
        case 'cancel_refused':
          throw new DuffelSimError(
            422,
            'airline_error',
            'order_not_cancellable',
            'Order cannot be cancelled',
            'The airline does not allow this order to be cancelled',
          );
        case 'offer_gone':
          if (offerId) sim.markGone(token, offerId);
          break;
        case 'price_moved':
          if (offerId) sim.movePrice(token, offerId, fault.price_delta ?? 10);
          break;
        case 'hold':
          // Nothing done until the control API releases the call; then it is answered as any other.
          if (!(await holds.wait(res, holdKey(token, operation)))) return;
          break;
        case 'timeout': {
          // Done, then the answer is withheld: the caller cannot tell whether it happened.
          let answer: () => { status: number; body: unknown };
          try {
            const done = handler(req, token, fault);
            answer = () => done;
          } catch (err) {
            answer = () => {
              throw err;
            };
          }
          if (!(await withholder.hold(res))) return;
          const { status, body } = answer();
          res.status(status).json(body);
          return;
        }
        default:
          break;
      }
      const { status, body } = handler(req, token, fault);
      res.status(status).json(body);
    } catch (err) {
      next(err);
    }
  };

  router.get(
    '/air/airlines',
    op('airlines.list', (req) => ({ status: 200, body: page<Airline>([...AIRLINES], req.query) })),
  );
  router.post(
    '/air/offer_requests',
    op('offer_requests.create', (req, token) => {
      const created: OfferRequest = sim.createOfferRequest(
        token,
        ((req.body as { data?: CreateOfferRequest }).data ?? {}) as CreateOfferRequest,
      );
      // return_offers=false leaves the offers to be listed separately, as Duffel does.
      const body = req.query.return_offers === 'false' ? { ...created, offers: [] } : created;
      return { status: 201, body: one(body) };
    }),
  );
  router.get(
    '/air/offers/:id',
    op('offers.get', (req, token) => ({ status: 200, body: one<Offer>(sim.getOffer(token, String(req.params.id))) })),
  );
  router.post(
    '/air/orders',
    op('orders.create', (req, token) => ({
      status: 201,
      body: one<Order>(sim.createOrder(token, ((req.body as { data?: CreateOrder }).data ?? {}) as CreateOrder)),
    })),
  );
  router.get(
    '/air/orders',
    op('orders.list', (req, token) => {
      const raw = req.query['passenger_name[]'] ?? req.query.passenger_name;
      const names = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
      return { status: 200, body: page<Order>(sim.listOrders(token, names), req.query) };
    }),
  );
  router.get(
    '/air/orders/:id',
    op('orders.get', (req, token) => ({ status: 200, body: one<Order>(sim.getOrder(token, String(req.params.id))) })),
  );
  router.post(
    '/air/order_cancellations',
    op('order_cancellations.create', (req, token) => {
      const orderId = (req.body as { data?: { order_id?: unknown } }).data?.order_id;
      if (typeof orderId !== 'string') throw validation('order_id', 'order_id is required');
      return { status: 201, body: one<SimCancellation>(sim.createCancellation(token, orderId)) };
    }),
  );
  router.post(
    '/air/order_cancellations/:id/actions/confirm',
    op('order_cancellations.confirm', (req, token) => ({
      status: 200,
      body: one<SimCancellation>(sim.confirmCancellation(token, String(req.params.id))),
    })),
  );

  router.post(
    '/air/webhooks',
    op('webhooks.create', (req, token) => ({
      status: 201,
      body: one(
        changesOf(sim).createWebhook(token, (req.body as { data?: { url?: unknown; events?: unknown } }).data ?? {}),
      ),
    })),
  );
  router.get(
    '/air/webhooks',
    op('webhooks.list', (req, token) => ({ status: 200, body: page(changesOf(sim).webhooks(token), req.query) })),
  );
  // Duffel answers a deletion with 204 and no body.
  router.delete(
    '/air/webhooks/:id',
    op('webhooks.delete', (req, token) => {
      changesOf(sim).deleteWebhook(token, String(req.params.id));
      return { status: 204, body: undefined };
    }),
  );
  router.get(
    '/air/airline_initiated_changes',
    op('airline_initiated_changes.list', (req, token) => {
      if (typeof req.query.order_id !== 'string') throw validation('order_id', 'order_id is required');
      return { status: 200, body: one(changesOf(sim).list(token, req.query.order_id)) };
    }),
  );
  router.get(
    '/air/airline_initiated_changes/:id',
    op('airline_initiated_changes.get', (req, token) => ({
      status: 200,
      body: one(changesOf(sim).get(token, String(req.params.id))),
    })),
  );
  router.post(
    '/air/airline_initiated_changes/:id/actions/accept',
    op('airline_initiated_changes.accept', (req, token) => ({
      status: 200,
      body: one(changesOf(sim).accept(token, String(req.params.id))),
    })),
  );
  staysRoutes(router, op, sim.stays);

  router.use((_req, _res, next) => next(notFound()));
  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof DuffelSimError) return sendError(res, err);
    const parse = (err as { type?: unknown }).type === 'entity.parse.failed';
    sendError(
      res,
      parse
        ? new DuffelSimError(
            400,
            'invalid_request_error',
            'malformed_json',
            'Malformed JSON',
            'The request body is not JSON',
          )
        : serverError(),
    );
  });
  return router;
}

/** What a held call waits under: its token's operation. */
const holdKey = (token: string, operation: DuffelOperation) => `duffel ${token} ${operation}`;

/**
 * The simulation's control API (`/_control/duffel`, mounted only with the sandbox's own control API): arm
 * faults per token, release held calls, refuse tokens, set an account's currency, read orders, reset.
 */
export function duffelControlRouter(sim: DuffelSim, holds: CallHolds): Router {
  const router = express.Router();
  router.use(express.json());
  const bad = (res: Response, issue: string) =>
    res.status(422).json({ error: { code: 'VALIDATION_FAILED', message: issue } });

  router.post('/faults', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.token !== 'string') return bad(res, 'token is required');
    if (!DUFFEL_OPERATIONS.includes(b.operation as DuffelOperation))
      return bad(res, `operation must be one of ${DUFFEL_OPERATIONS.join(', ')}`);
    if (!DUFFEL_OUTCOMES.includes(b.outcome as (typeof DUFFEL_OUTCOMES)[number]))
      return bad(res, `outcome must be one of ${DUFFEL_OUTCOMES.join(', ')}`);
    const fault = sim.armFault(b.token, {
      operation: b.operation as DuffelOperation,
      outcome: b.outcome as (typeof DUFFEL_OUTCOMES)[number],
      ...(typeof b.count === 'number' ? { count: b.count } : {}),
      ...(typeof b.retry_after_s === 'number' ? { retry_after_s: b.retry_after_s } : {}),
      ...(typeof b.price_delta === 'number' ? { price_delta: b.price_delta } : {}),
      ...(b.after_effect === true ? { after_effect: true } : {}),
    });
    return res.status(201).json(fault);
  });
  router.post('/holds/release', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.token !== 'string') return bad(res, 'token is required');
    if (!DUFFEL_OPERATIONS.includes(b.operation as DuffelOperation))
      return bad(res, `operation must be one of ${DUFFEL_OPERATIONS.join(', ')}`);
    return res.json({ released: holds.release(holdKey(b.token, b.operation as DuffelOperation)) });
  });
  router.get('/calls', (req, res) =>
    res.json({ calls: sim.callCounts(typeof req.query.token === 'string' ? req.query.token : undefined) }),
  );
  router.post('/refused-tokens', (req, res) => {
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return bad(res, 'token is required');
    sim.refuseToken(token);
    return res.status(204).end();
  });
  router.post('/accounts', (req, res) => {
    const { token, currency } = (req.body ?? {}) as { token?: unknown; currency?: unknown };
    if (typeof token !== 'string' || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
      return bad(res, 'token and a 3-letter currency are required');
    sim.setCurrency(token, currency);
    return res.status(204).end();
  });
  router.get('/orders', (req, res) => {
    if (typeof req.query.token !== 'string') return bad(res, 'token is required');
    return res.json({ orders: sim.orders(req.query.token) });
  });
  // An airline changes an order: the change is recorded and its signed event sent to the token's webhooks.
  router.post('/airline-changes', async (req, res, next) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.token !== 'string' || typeof b.order_id !== 'string')
      return bad(res, 'token and order_id are required');
    const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
    try {
      const change = changesOf(sim).create(b.token, {
        order_id: b.order_id,
        ...(num(b.shift_minutes) === undefined ? {} : { shift_minutes: num(b.shift_minutes)! }),
        ...(num(b.extend_minutes) === undefined ? {} : { extend_minutes: num(b.extend_minutes)! }),
        ...(typeof b.flight_number === 'string' ? { flight_number: b.flight_number } : {}),
        ...(typeof b.destination === 'string' ? { destination: b.destination } : {}),
      });
      const deliveries =
        b.deliver === false
          ? []
          : await changesOf(sim).deliver(b.token, change, {
              badSignature: b.bad_signature === true,
              ...(typeof b.rebase === 'string' ? { rebase: b.rebase } : {}),
            });
      return res.status(201).json({ change, deliveries });
    } catch (err) {
      if (err instanceof DuffelSimError)
        return res.status(err.status).json({ error: { code: err.code, message: err.message } });
      return next(err);
    }
  });
  // Duffel announces an order it made (order.created), also one whose creating call timed out.
  router.post('/order-events', async (req, res, next) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.token !== 'string' || typeof b.order_id !== 'string')
      return bad(res, 'token and order_id are required');
    try {
      const deliveries = await changesOf(sim).deliverOrderCreated(b.token, b.order_id, {
        ...(typeof b.rebase === 'string' ? { rebase: b.rebase } : {}),
      });
      return res.status(201).json({ deliveries });
    } catch (err) {
      if (err instanceof DuffelSimError)
        return res.status(err.status).json({ error: { code: err.code, message: err.message } });
      return next(err);
    }
  });
  staysControlRoutes(router, sim.stays, bad);
  router.post('/reset', (_req, res) => {
    changesOf(sim).reset();
    sim.reset();
    res.status(204).end();
  });
  return router;
}
