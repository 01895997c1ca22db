import { OAUTH_ROUTES } from '@crew/contracts';
import { basicCredentials, bearerToken, route, type RouteSpec } from '@crew/platform';
import { issueClientCredentialsToken, refreshToken, registerClient, type OAuthDeps } from './oauth.service';

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The documented OAuth endpoints (contracts' OAUTH_ROUTES) with their handlers. */
export function oauthRoutes(deps: OAuthDeps): RouteSpec[] {
  return [
    route({
      ...OAUTH_ROUTES.register,
      tags: [...OAUTH_ROUTES.register.tags],
      handler: async ({ req, query }) => ({
        status: 201,
        headers: noStore,
        body: await registerClient(deps, bearerToken(req.headers.authorization), query.name, query.scopes),
      }),
    }),
    route({
      ...OAUTH_ROUTES.token,
      tags: [...OAUTH_ROUTES.token.tags],
      handler: async ({ req, query }) => {
        // RFC 6749 puts grant_type in a form body; the spec puts it in the query. Accept both.
        const form = (req.body ?? {}) as Record<string, string | undefined>;
        const grantType = query.grant_type ?? form.grant_type;
        const body = await issueClientCredentialsToken(
          deps,
          basicCredentials(req.headers.authorization),
          grantType,
          query.scope ?? form.scope,
        );
        return { status: 200, headers: noStore, body };
      },
    }),
    route({
      ...OAUTH_ROUTES.refresh,
      tags: [...OAUTH_ROUTES.refresh.tags],
      handler: async ({ req, query }) => {
        const form = (req.body ?? {}) as Record<string, string | undefined>;
        return {
          status: 200,
          headers: noStore,
          body: await refreshToken(deps, query.refresh_token ?? form.refresh_token),
        };
      },
    }),
    route({
      ...OAUTH_ROUTES.jwks,
      tags: [...OAUTH_ROUTES.jwks.tags],
      handler: async () => ({
        status: 200,
        headers: { 'Cache-Control': 'public, max-age=60' },
        body: await deps.keys.jwks(),
      }),
    }),
  ];
}
