import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { postgresAnswers, type Db } from '@crew/db';
import {
  errorHandler,
  fallbackHandler,
  mountRoutes,
  requestLogger,
  TRUSTED_PROXIES,
  type Logger,
} from '@crew/platform';
import type { KeyStore } from './key-store';
import { oauthRoutes } from './oauth.routes';

export interface AuthAppDeps {
  db: Db;
  keys: KeyStore;
  logger: Logger;
  /** The `iss` claim: the service's own public base URL (AUTH_URL). */
  issuer: () => string;
}

/** Paths that answer cross-origin (CORS) requests: the token endpoints and the public keys. */
export const CORS_PATHS = ['/oauth/token', '/oauth/refresh', '/.well-known/jwks.json'];

export function createAuthApp(deps: AuthAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', TRUSTED_PROXIES);
  app.use(helmet());
  app.use(requestLogger(deps.logger));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Readiness: every token request needs Postgres, so a pod that cannot reach it (within a time limit: a
  // silent one too) leaves the Service until it can.
  app.get('/readyz', async (_req, res) => {
    const checks = { postgres: await postgresAnswers(deps.db) };
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  // Browsers call the token endpoints from other origins (the api's /docs "Authorize"). They take client
  // credentials or a refresh token, never cookies, so any origin may: nothing ambient is exposed.
  app.use(
    CORS_PATHS,
    cors({
      origin: '*',
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Requested-With'],
      maxAge: 600,
    }),
  );
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));
  const routes = oauthRoutes({ db: deps.db, keys: deps.keys, issuer: deps.issuer });
  const router = express.Router();
  mountRoutes(router, routes, () => []);
  app.use(router);
  app.use(fallbackHandler(routes));
  app.use(errorHandler(deps.logger));
  return app;
}
