import { randomUUID } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  API_AUDIENCE,
  ErrorCode,
  SCHEDULE_SCOPES,
  SCOPES,
  isUuid,
  type ClientRegistration,
  type Scope,
  type TokenResponse,
} from '@crew/contracts';
import { authRepo, tenancyRepo, type Db } from '@crew/db';
import { ApiError, hashSecret, newSecret, safeEqual } from '@crew/platform';
import type { KeyStore } from './key-store';

const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

/** A client id as registration issues it: `cl_` and 12 random bytes in base64url (16 characters). */
const newClientId = () => `cl_${newSecret(12)}`;
const CLIENT_ID = /^cl_[A-Za-z0-9_-]{16}$/;

export interface OAuthDeps {
  db: Db;
  keys: KeyStore;
  issuer: () => string;
}

/** Scopes an airline's clients may hold right now: `schedules:*` only with the operator's `schedules_access`. */
export function offeredScopes(schedulesAccess: boolean): Scope[] {
  return SCOPES.filter((s) => schedulesAccess || !SCHEDULE_SCOPES.includes(s));
}

function parseScopes(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s+]+/).filter(Boolean);
}

/** `<user_id>:<user_token>` bearer of a user → the user, or 401. */
async function authenticateUser(db: Db, credential: string | null) {
  const i = credential?.indexOf(':') ?? -1;
  if (!credential || i <= 0)
    throw ApiError.unauthorized('A user credential of the form <user_id>:<user_token> is required');
  const userId = credential.slice(0, i);
  const token = credential.slice(i + 1);
  // Only a uuid reaches Postgres' uuid column (another string would be its error, a 500).
  if (!isUuid(userId)) throw ApiError.unauthorized('Unknown user or bad user token');
  const user = await tenancyRepo.findUser(db, userId);
  if (!user || !safeEqual(user.token_hash, hashSecret(token)))
    throw ApiError.unauthorized('Unknown user or bad user token');
  return user;
}

export async function registerClient(
  deps: OAuthDeps,
  credential: string | null,
  name: string,
  scopesRaw: string | undefined,
): Promise<ClientRegistration> {
  const user = await authenticateUser(deps.db, credential);
  const airline = await tenancyRepo.findAirline(deps.db, user.airline_id);
  if (!airline) throw ApiError.unauthorized('Unknown user or bad user token');
  const offered = offeredScopes(airline.schedules_access);
  const requested = scopesRaw === undefined ? offered : parseScopes(scopesRaw);
  const bad = requested.filter((s) => !offered.includes(s as Scope));
  if (requested.length === 0 || bad.length > 0) {
    throw new ApiError(
      400,
      ErrorCode.INVALID_SCOPE,
      'Unknown or not offered scope',
      bad.map((s) => ({ field: 'scopes', issue: `${s} is not offered to this airline` })),
    );
  }
  const clientId = newClientId();
  const secret = newSecret(32);
  const scopes = [...new Set(requested)];
  await authRepo.insertClient(deps.db, {
    client_id: clientId,
    airline_id: airline.airline_id,
    user_id: user.user_id,
    name,
    secret_hash: hashSecret(secret),
    scopes,
  });
  return { client_id: clientId, client_secret: secret, name, scope: scopes.join(' '), airline_id: airline.airline_id };
}

type LiveClient = NonNullable<Awaited<ReturnType<typeof authRepo.findLiveClient>>>;

async function mintTokens(
  deps: OAuthDeps,
  client: LiveClient,
  scopes: string[],
  familyId: string,
): Promise<TokenResponse> {
  const scope = scopes.join(' ');
  const accessToken = await deps.keys.sign(
    { airline_id: client.airline_id, user_id: client.user_id, email: client.email, scope },
    client.client_id,
    deps.issuer(),
    API_AUDIENCE,
    ACCESS_TOKEN_TTL_SECONDS,
  );
  const refreshToken = newSecret(32);
  await authRepo.insertRefreshToken(deps.db, {
    token_hash: hashSecret(refreshToken),
    client_id: client.client_id,
    family_id: familyId,
    scope,
    expires_at: new Date(Date.now() + REFRESH_TTL_MS),
  });
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    scope,
  };
}

/** Scopes still granted: the client's, narrowed by the request, minus what the airline no longer offers. */
function grantedScopes(client: LiveClient, requested: string[] | null): string[] {
  const offered = offeredScopes(client.schedules_access);
  const held = client.scopes.filter((s) => offered.includes(s as Scope));
  if (!requested) return held;
  const bad = requested.filter((s) => !held.includes(s));
  if (bad.length)
    throw new ApiError(
      400,
      ErrorCode.INVALID_SCOPE,
      'The client does not hold the requested scope',
      bad.map((s) => ({ field: 'scope', issue: `${s} not granted` })),
    );
  return requested;
}

export async function issueClientCredentialsToken(
  deps: OAuthDeps,
  basic: { id: string; secret: string } | null,
  grantType: string | undefined,
  scopeRaw: string | undefined,
): Promise<TokenResponse> {
  if (grantType !== 'client_credentials') {
    throw ApiError.invalid('grant_type must be client_credentials', [
      { field: 'grant_type', issue: 'must be client_credentials' },
    ]);
  }
  if (!basic) throw ApiError.unauthorized('HTTP Basic client credentials are required');
  // An id registration never issues is no client, and never a query: a NUL in it would be Postgres' error (a 500).
  const client = CLIENT_ID.test(basic.id) ? await authRepo.findLiveClient(deps.db, basic.id) : undefined;
  // Same answer for an unknown client and a wrong secret.
  if (!client || !safeEqual(client.secret_hash, hashSecret(basic.secret)))
    throw ApiError.unauthorized('Unknown client or bad client secret');
  const scopes = grantedScopes(client, scopeRaw === undefined ? null : parseScopes(scopeRaw));
  return mintTokens(deps, client, scopes, randomUUID());
}

/** One-time refresh with rotation; presenting a used token revokes its whole family (RFC 6819 5.2.2.3). */
export async function refreshToken(deps: OAuthDeps, presented: string | undefined): Promise<TokenResponse> {
  if (!presented) throw ApiError.unauthorized('refresh_token is required');
  const hash = hashSecret(presented);
  const used = await authRepo.consumeRefreshToken(deps.db, hash);
  if (!used) {
    const known = await authRepo.findRefreshToken(deps.db, hash);
    if (known) await authRepo.revokeRefreshFamily(deps.db, known.family_id);
    throw ApiError.unauthorized('Unknown, expired or already used refresh token');
  }
  const client = await authRepo.findLiveClient(deps.db, used.client_id);
  if (!client) throw ApiError.unauthorized('The client of this refresh token is no longer valid');
  const offered = offeredScopes(client.schedules_access);
  const scopes = used.scope.split(' ').filter((s) => s && offered.includes(s as Scope) && client.scopes.includes(s));
  return mintTokens(deps, client, scopes, used.family_id);
}
