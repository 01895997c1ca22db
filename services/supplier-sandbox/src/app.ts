import { setTimeout as sleep } from 'node:timers/promises';
import express, { type Express, type RequestHandler } from 'express';
import {
  createLogger,
  errorHandler,
  fallbackHandler,
  mountRoutes,
  requestLogger,
  route,
  type Logger,
  type RouteSpec,
} from '@crew/platform';
import { Sandbox, type SandboxCoreOptions } from './sandbox';
import { CallHolds, controlRoutes, SUPPLIER_TAG, supplierRoutes, Withholder } from './routes';
import { DuffelSim } from './duffel/sim';
import { duffelControlRouter, duffelRouter } from './duffel/routes';

export interface SandboxOptions extends SandboxCoreOptions {
  /** Added before every supplier answer, the Duffel dialect's too (not /_control, not /healthz); models a real supplier. */
  latencyMs?: number;
  /** The latency varies uniformly by up to ± this much. */
  jitterMs?: number;
  /** Mount /_control (default true); main.ts switches it off when NODE_ENV=production. */
  controlApi?: boolean;
  logger?: Logger;
  /** How long a `timeout` fault withholds its answer if the client keeps waiting (default 10 minutes). */
  timeoutHoldMs?: number;
  /** Duffel simulation: e-tickets appear on reads this long after the order (default 0). */
  duffelTicketingDelayMs?: number;
}

export interface SandboxApp {
  app: Express;
  /** The supplier state, for in-process tests (clock, faults, reservations). */
  sandbox: Sandbox;
  /** The Duffel-dialect simulation at `/duffel/` (accounts per token, faults, orders), for in-process tests. */
  duffel: DuffelSim;
  /**
   * Drops the connections of answers withheld by `timeout` faults and of calls held by `hold` faults, so a server
   * can close at once.
   */
  releaseWithheld: () => void;
}

const DEFAULT_HOLD_MS = 10 * 60 * 1000;

function latency(latencyMs: number, jitterMs: number): RequestHandler {
  return async (_req, _res, next) => {
    const delay = Math.max(0, latencyMs + (Math.random() * 2 - 1) * jitterMs);
    if (delay > 0) await sleep(delay);
    next();
  };
}

/** Counts a supplier call as it arrives (before its latency), by operation id. */
function counted(sandbox: Sandbox, operationId: string): RequestHandler {
  return (_req, _res, next) => {
    sandbox.countCall(operationId);
    next();
  };
}

export function createSandboxApp(options: SandboxOptions = {}): SandboxApp {
  const logger = options.logger ?? createLogger('supplier-sandbox', 'silent');
  const sandbox = new Sandbox(options);
  const withholder = new Withholder(options.timeoutHoldMs ?? DEFAULT_HOLD_MS);
  const duffelWithholder = new Withholder(options.timeoutHoldMs ?? DEFAULT_HOLD_MS);
  const holds = new CallHolds();
  const duffel = new DuffelSim({ now: () => sandbox.now(), ticketingDelayMs: options.duffelTicketingDelayMs ?? 0 });
  const health = route({
    method: 'get',
    path: '/healthz',
    tags: ['health'],
    auth: 'none',
    operationId: 'health',
    summary: 'Liveness',
    responses: { 200: { description: 'up' } },
    handler: () => ({ status: 200, body: { status: 'ok' } }),
  });
  const routes: RouteSpec[] = [
    health,
    ...supplierRoutes(sandbox, withholder, holds),
    ...(options.controlApi === false ? [] : controlRoutes(sandbox, holds)),
  ];

  const latencyMs = options.latencyMs ?? 0;
  const jitterMs = options.jitterMs ?? 0;
  const delay = latencyMs > 0 || jitterMs > 0 ? [latency(latencyMs, jitterMs)] : [];

  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogger(logger));
  // Duffel's dialect has its own envelopes and auth, so it is a router of its own, not platform routes.
  app.use('/duffel', ...delay, duffelRouter(duffel, duffelWithholder, holds));
  if (options.controlApi !== false) app.use('/_control/duffel', duffelControlRouter(duffel, holds));
  const router = express.Router();
  mountRoutes(router, routes, (spec) =>
    spec.tags.includes(SUPPLIER_TAG) ? [counted(sandbox, spec.operationId), ...delay] : [],
  );
  app.use(router);
  app.use(fallbackHandler(routes));
  app.use(errorHandler(logger));
  return {
    app,
    sandbox,
    duffel,
    releaseWithheld: () => {
      withholder.release();
      duffelWithholder.release();
      holds.drop();
    },
  };
}
