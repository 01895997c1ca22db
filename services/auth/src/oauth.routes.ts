import { ClientRegistration, Jwks, RefreshQuery, RegisterQuery, TokenQuery, TokenResponse } from '@crew/contracts';
import { basicCredentials, bearerToken, route, type RouteSpec, errorResponses } from '@crew/platform';
import { issueClientCredentialsToken, refreshToken, registerClient, type OAuthDeps } from './oauth.service';

const TAGS = ['Auth (OAuth 2.0)'];
const errors = errorResponses;
const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The auth service's endpoints (spec section 5), declared once for express and for the OpenAPI document. */
export function oauthRoutes(deps: OAuthDeps): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/oauth/register',
      operationId: 'registerClient',
      summary: 'Register an OAuth client (once), authenticated as a user with Bearer <user_id>:<user_token>',
      tags: TAGS,
      auth: 'user',
      query: RegisterQuery,
      responses: { 201: { description: 'The client; the secret is shown once', schema: ClientRegistration }, ...errors([400, 401]) },
      handler: async ({ req, query }) => ({
        status: 201,
        headers: noStore,
        body: await registerClient(deps, bearerToken(req.headers.authorization), query.name, query.scopes),
      }),
    }),
    route({
      method: 'post',
      path: '/oauth/token',
      operationId: 'issueToken',
      summary: 'client_credentials grant with HTTP Basic client_id:client_secret',
      tags: TAGS,
      auth: 'client',
      query: TokenQuery,
      responses: { 200: { description: 'Tokens', schema: TokenResponse }, ...errors([400, 401]) },
      handler: async ({ req, query }) => {
        // RFC 6749 puts grant_type in a form body; the spec puts it in the query. Accept both.
        const form = (req.body ?? {}) as Record<string, string | undefined>;
        const grantType = query.grant_type ?? form.grant_type;
        const body = await issueClientCredentialsToken(deps, basicCredentials(req.headers.authorization), grantType, query.scope ?? form.scope);
        return { status: 200, headers: noStore, body };
      },
    }),
    route({
      method: 'post',
      path: '/oauth/refresh',
      operationId: 'refreshToken',
      summary: 'Exchange a refresh token (one-time, rotated) for a fresh access token',
      tags: TAGS,
      auth: 'none',
      query: RefreshQuery,
      responses: { 200: { description: 'Fresh tokens', schema: TokenResponse }, ...errors([401]) },
      handler: async ({ req, query }) => {
        const form = (req.body ?? {}) as Record<string, string | undefined>;
        return { status: 200, headers: noStore, body: await refreshToken(deps, query.refresh_token ?? form.refresh_token) };
      },
    }),
    route({
      method: 'get',
      path: '/.well-known/jwks.json',
      operationId: 'jwks',
      summary: 'Public keys that verify access tokens',
      tags: TAGS,
      auth: 'none',
      responses: { 200: { description: 'JWKS', schema: Jwks } },
      handler: async () => ({ status: 200, headers: { 'Cache-Control': 'public, max-age=60' }, body: await deps.keys.jwks() }),
    }),
  ];
}
