export { createAuthApp, type AuthAppDeps } from './app';
export { KeyStore, SIGNING_ALG } from './key-store';
export { oauthRoutes } from './oauth.routes';
