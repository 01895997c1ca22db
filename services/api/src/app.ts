import express, { type Express } from 'express';
import helmet from 'helmet';
import { isMigrated, postgresAnswers, READINESS_DEADLINE_MS } from '@crew/db';
import {
  errorHandler,
  fallbackHandler,
  mountRoutes,
  requestLogger,
  TravellerVault,
  TRUSTED_PROXIES,
  type RouteSpec,
} from '@crew/platform';
import { redisReachable, withDeadline } from '@crew/queue';
import { tenancyRepo } from '@crew/db';
import { scheduleRoutes } from './schedules/schedules.routes';
import { bookingRoutes } from './bookings/bookings.routes';
import { guardFor } from './auth/guard';
import { airlineRateLimit } from './auth/rate-limit';
import { requireKnownAirline } from './auth/known-airline';
import { companyConfigRoutes } from './config/company.routes';
import { configRoutes } from './config/config.routes';
import { contractRoutes } from './config/contracts.routes';
import { propertyTimeZone, supplierDirectory } from './config/hotels.service';
import { apiSupplierRegistry } from './suppliers/supplier-registry';
import { airlineStays } from './config/duffel-stays';
import { opsChangeRequestRoutes, opsRoutes } from './ops/ops.routes';
import { opsFxRoutes } from './ops/fx.routes';
import { duffelTokenCheck, opsSupplierRoutes } from './ops/suppliers.routes';
import { searchRoutes } from './search/search.routes';
import { flightOptionsDeps } from './search/flight-options.service';
import { supplierHotelRoutes } from './search/supplier-hotels.routes';
import { coverageRoutes } from './roster-coverage/coverage.routes';
import { spendRoutes } from './reports/spend.routes';
import { schedulePreviewRoutes } from './schedules/preview.routes';
import { mountOperability, operabilityMiddleware } from './operability';
import { opsRoomingRoutes, roomingRoutes } from './rooming/rooming.routes';
import { confirmationPage } from './rooming/confirmation.page';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { ownAirlineCallbacks } from './callbacks/own-airline.callback';
import { travellerRoutes } from './travellers/travellers.routes';
import { duffelCallback } from './callbacks/duffel.callback';
import { consoleDeps, consoleRouter } from './console/console.router';
import { consoleUserRoutes } from './console/console-users.routes';
import { API_BASE, OPS_BASE, type ApiDeps } from './deps';
import { actionItemRoutes } from './action-items/action-items.routes';
import { airlineChangesOf } from './action-items/airline-changes';
import { reviewSettingsRoutes } from './config/review-settings.routes';
import { invoiceRoutes } from './invoices/invoices.routes';
import { costSettingsRoutes } from './config/cost-settings.routes';

/** Every declared route, by mount point: what express serves and what the OpenAPI document describes. */
export function apiRoutes(deps: ApiDeps): { crew: RouteSpec[]; ops: RouteSpec[] } {
  // Traveller personal fields are sealed with the key list that seals supplier credentials; the worker opens them.
  const vault = TravellerVault.fromKey(deps.config.supplierCredentialsKey);
  const registry = deps.registry ?? apiSupplierRegistry(deps.db, deps.config, deps.suppliers);
  const staysOf = airlineStays(registry);
  return {
    crew: [
      ...companyConfigRoutes(deps.db),
      ...reviewSettingsRoutes(deps.db),
      ...costSettingsRoutes(deps.db),
      ...configRoutes(deps.db, supplierDirectory(deps.suppliers, staysOf)),
      ...contractRoutes(deps.db, deps.logger, propertyTimeZone(deps.suppliers, staysOf), {
        vault,
        relay: deps.relay,
        ...(deps.now ? { now: deps.now } : {}),
      }),
      ...roomingRoutes(deps.db),
      ...scheduleRoutes(deps.db, deps.relay, deps.rosterIntake),
      ...schedulePreviewRoutes(deps.db, deps.rosterIntake, vault, deps.now),
      ...coverageRoutes(deps.db, deps.now),
      ...spendRoutes(deps.db),
      ...invoiceRoutes(deps.db, deps.relay),
      ...bookingRoutes({
        db: deps.db,
        relay: deps.relay,
        suppliers: deps.suppliers,
        registry,
        logger: deps.logger,
        vault,
        bookingSettled: deps.bookingSettled,
        staysOf,
        ...(deps.now ? { now: deps.now } : {}),
      }),
      ...actionItemRoutes({
        db: deps.db,
        relay: deps.relay,
        suppliers: deps.suppliers,
        registry,
        logger: deps.logger,
        vault,
        airlineChanges: airlineChangesOf(deps.db, deps.config),
      }),
      ...searchRoutes(deps.suppliers, flightOptionsDeps(deps.db, registry, deps.now ?? (() => new Date()))),
      ...supplierHotelRoutes(staysOf),
      ...webhookRoutes(deps.db, deps.config),
      ...travellerRoutes(deps.db, vault, deps.logger, deps.now),
      ...consoleUserRoutes(deps.db, deps.config, deps.logger, deps.now),
    ],
    ops: [
      ...opsRoutes(deps.db, vault),
      ...opsSupplierRoutes({
        db: deps.db,
        config: deps.config,
        logger: deps.logger,
        checkDuffelToken: deps.checkDuffelToken ?? duffelTokenCheck(deps.config),
        // This process's searches follow a changed order at once (other replicas within the registry's TTL).
        changed: (airlineId) => registry.forget(airlineId),
      }),
      ...opsChangeRequestRoutes(deps.db),
      ...opsFxRoutes(deps.db, deps.now),
      ...opsRoomingRoutes(deps.db),
    ],
  };
}

export function createApiApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No client revalidates with If-None-Match: an ETag was a SHA-1 of every answer (a page of 50 items too) for nothing.
  app.disable('etag');
  app.set('trust proxy', TRUSTED_PROXIES);
  app.use(helmet());
  app.use(requestLogger(deps.logger));
  for (const m of operabilityMiddleware(deps)) app.use(m);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  let migrated = false;
  app.get('/readyz', async (_req, res) => {
    const checks = { postgres: false, migrations: false, redis: false };
    // Within a time limit: a Postgres that stopped answering (packets dropped) is not ready either.
    checks.postgres = await postgresAnswers(deps.db);
    if (checks.postgres) {
      migrated = migrated || (await withDeadline(isMigrated(deps.db), READINESS_DEADLINE_MS).catch(() => false));
      checks.migrations = migrated;
    }
    checks.redis = await redisReachable(deps.redis);
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });

  // One supplier registry for the API's routes and the console's pages: a changed supplier order is forgotten by both.
  const shared = { ...deps, registry: deps.registry ?? apiSupplierRegistry(deps.db, deps.config, deps.suppliers) };
  const routes = apiRoutes(shared);
  const rateLimit = airlineRateLimit(deps.redis, {
    perMinute: deps.config.rateLimitPerMinute,
    keyPrefix: deps.config.queuePrefix,
    logger: deps.logger,
  });
  const verify = requireKnownAirline(deps.verifyToken, (airlineId) => tenancyRepo.airlineExists(deps.db, airlineId));
  const guard = guardFor(verify, deps.config.opsToken, deps.logger, rateLimit);
  for (const [base, list] of [
    [API_BASE, routes.crew],
    [OPS_BASE, routes.ops],
  ] as const) {
    const router = express.Router();
    mountRoutes(router, list, guard);
    app.use(base, router);
  }
  mountOperability(app, deps, routes);
  // The airline's own reservation system completes crew-seat requests: no bearer, the signature is the credential.
  app.use(ownAirlineCallbacks({ db: deps.db, config: deps.config, logger: deps.logger, relay: deps.relay }));
  // Duffel's webhook deliveries: no bearer, the signature over the raw body is the credential.
  app.use(duffelCallback({ db: deps.db, config: deps.config, logger: deps.logger, relay: deps.relay }));
  // The hotel confirmation page of rooming lists: no bearer, the signed link is the credential.
  app.use(
    confirmationPage(deps.db, deps.config.opsToken, deps.logger.child({ component: 'rooming-confirmation' }), deps.now),
  );
  // The travel desk's console: people signed in with their own login (a session cookie), never a bearer.
  app.use(consoleRouter(consoleDeps(shared)));
  app.use(
    fallbackHandler([
      ...routes.crew.map((r) => ({ ...r, path: API_BASE + r.path })),
      ...routes.ops.map((r) => ({ ...r, path: OPS_BASE + r.path })),
    ]),
  );
  app.use(errorHandler(deps.logger));
  return app;
}
