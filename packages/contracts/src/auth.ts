import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';
import { errorResponses, type RouteDoc } from './routes';

/** Scopes of spec section 5 / DESIGN section 2. */
export const SCOPES = ['events:read', 'events:write', 'schedules:read', 'schedules:write'] as const;
export type Scope = (typeof SCOPES)[number];
/** Offered at registration only when the operator has switched `schedules_access` on. */
export const SCHEDULE_SCOPES: readonly Scope[] = ['schedules:read', 'schedules:write'];

/** The audience every access token is issued for. */
export const API_AUDIENCE = 'crew-travel-api';
export const ACCESS_TOKEN_TTL_SECONDS = 900;

export const RegisterQuery = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Optional(
      Type.String({ maxLength: 500, description: 'Space-separated scopes; default: every offered scope' }),
    ),
  },
  { additionalProperties: false },
);

export const ClientRegistration = Type.Object(
  {
    client_id: Type.String(),
    client_secret: Type.String({ description: 'Shown once; stored only as a hash' }),
    name: Type.String(),
    scope: Type.String({ description: 'Space-separated scopes granted to the client' }),
    airline_id: Type.String(),
  },
  { title: 'ClientRegistration' },
);
export type ClientRegistration = Static<typeof ClientRegistration>;

export const TokenQuery = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ maxLength: 64 })),
    scope: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const RefreshQuery = Type.Object(
  { refresh_token: Type.Optional(Type.String({ maxLength: 512 })) },
  { additionalProperties: false },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.String(),
  },
  { title: 'TokenResponse' },
);
export type TokenResponse = Static<typeof TokenResponse>;

export const Jwks = Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }, { title: 'Jwks' });

export const ScopeEnum = StringEnum(SCOPES);

/**
 * The scope an airline API call needs (DESIGN section 2): `schedules:write` for POST /crew/schedules,
 * `schedules:read` for every GET under /crew/schedules, `events:write` for every other mutation and
 * `events:read` for every other GET. `path` is relative to /api/v1.
 */
export function requiredScope(method: string, path: string): Scope {
  const m = method.toLowerCase();
  if (path === '/crew/schedules' || path.startsWith('/crew/schedules/')) {
    return m === 'get' ? 'schedules:read' : 'schedules:write';
  }
  return m === 'get' ? 'events:read' : 'events:write';
}

const AUTH_TAGS = ['Auth (OAuth 2.0)'];

/** The auth service's endpoints (spec section 5), as documented; the auth service serves them. */
export const OAUTH_ROUTES = {
  register: {
    method: 'post',
    path: '/oauth/register',
    operationId: 'registerClient',
    summary: 'Register an OAuth client (once), authenticated as a user with Bearer <user_id>:<user_token>',
    tags: AUTH_TAGS,
    auth: 'user',
    query: RegisterQuery,
    responses: {
      201: { description: 'The client; the secret is shown once', schema: ClientRegistration },
      ...errorResponses([400, 401]),
    },
  },
  token: {
    method: 'post',
    path: '/oauth/token',
    operationId: 'issueToken',
    summary: 'client_credentials grant with HTTP Basic client_id:client_secret',
    tags: AUTH_TAGS,
    auth: 'client',
    query: TokenQuery,
    responses: { 200: { description: 'Tokens', schema: TokenResponse }, ...errorResponses([400, 401]) },
  },
  refresh: {
    method: 'post',
    path: '/oauth/refresh',
    operationId: 'refreshToken',
    summary: 'Exchange a refresh token (one-time, rotated) for a fresh access token',
    tags: AUTH_TAGS,
    auth: 'none',
    query: RefreshQuery,
    responses: { 200: { description: 'Fresh tokens', schema: TokenResponse }, ...errorResponses([401]) },
  },
  jwks: {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'jwks',
    summary: 'Public keys that verify access tokens',
    tags: AUTH_TAGS,
    auth: 'none',
    responses: { 200: { description: 'JWKS', schema: Jwks } },
  },
} as const satisfies Record<string, RouteDoc>;
