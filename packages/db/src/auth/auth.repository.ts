import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

export function insertClient(
  db: DbOrTrx,
  row: { client_id: string; airline_id: string; user_id: string; name: string; secret_hash: string; scopes: string[] },
) {
  return db.insertInto('oauth_clients').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A live client together with the flags of its airline that decide which scopes it is offered. */
export function findLiveClient(db: DbOrTrx, clientId: string) {
  return db
    .selectFrom('oauth_clients as c')
    .innerJoin('airlines as a', 'a.airline_id', 'c.airline_id')
    .innerJoin('users as u', 'u.user_id', 'c.user_id')
    .select(['c.client_id', 'c.airline_id', 'c.user_id', 'c.secret_hash', 'c.scopes', 'a.schedules_access', 'u.email'])
    .where('c.client_id', '=', clientId)
    .where('c.revoked_at', 'is', null)
    .executeTakeFirst();
}

export function insertRefreshToken(
  db: DbOrTrx,
  row: { token_hash: string; client_id: string; family_id: string; scope: string; expires_at: Date },
) {
  return db.insertInto('refresh_tokens').values(row).execute();
}

/**
 * Marks a refresh token used, once: returns the row only to the single caller that used it first.
 * A second use of the same token finds `used_at` set and gets nothing back.
 */
export function consumeRefreshToken(db: DbOrTrx, tokenHash: string) {
  return db
    .updateTable('refresh_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

export function findRefreshToken(db: DbOrTrx, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function revokeRefreshFamily(db: DbOrTrx, familyId: string) {
  return db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql`now()` })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** How long a refresh token's family is kept after its last token expired. */
const KEPT_AFTER_EXPIRY = sql`interval '1 day'`;

/**
 * Deletes up to `limit` refresh tokens, oldest expiry first, of families whose every token expired more than a
 * day ago; how many. A used or revoked token stays while any token of its family can still be presented: its
 * reuse must keep revoking the family. A token of a family with nothing live can only be refused, known or not.
 */
export async function purgeRefreshTokens(db: DbOrTrx, limit: number): Promise<number> {
  const r = await db
    .deleteFrom('refresh_tokens')
    .where('refresh_token_id', 'in', (eb) =>
      eb
        .selectFrom('refresh_tokens as r')
        .select('r.refresh_token_id')
        .where('r.expires_at', '<', sql<Date>`now() - ${KEPT_AFTER_EXPIRY}`)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('refresh_tokens as l')
                .select('l.refresh_token_id')
                .whereRef('l.family_id', '=', 'r.family_id')
                .where('l.expires_at', '>=', sql<Date>`now() - ${KEPT_AFTER_EXPIRY}`),
            ),
          ),
        )
        .orderBy('r.expires_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export function listSigningKeys(db: DbOrTrx) {
  return db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').execute();
}

/** A new key, its private half sealed (never stored in plain text). */
export function insertSigningKey(
  db: DbOrTrx,
  row: { kid: string; alg: string; private_jwk_sealed: string; public_jwk: string; status: 'active' | 'previous' },
) {
  return db.insertInto('signing_keys').values(row).execute();
}

/** The active key becomes `previous`; a plain copy of its private key goes when a sealed one is stored. */
export function demoteActiveKeys(db: DbOrTrx) {
  return db
    .updateTable('signing_keys')
    .set({ status: 'previous', private_jwk: sql<null>`case when private_jwk_sealed is null then private_jwk end` })
    .where('status', '=', 'active')
    .execute();
}

/** Stores the sealed private key of `kid`, stored in plain text until now (once: a replica may have done it). */
export function storeSealedSigningKey(db: DbOrTrx, kid: string, sealed: string) {
  return db
    .updateTable('signing_keys')
    .set({ private_jwk_sealed: sealed })
    .where('kid', '=', kid)
    .where('private_jwk_sealed', 'is', null)
    .execute();
}

/** Drops the plain copy of a key's private half once it is sealed and no longer active (nothing reads it then). */
export function dropPlainSigningKey(db: DbOrTrx, kid: string) {
  return db
    .updateTable('signing_keys')
    .set({ private_jwk: null })
    .where('kid', '=', kid)
    .where('status', '!=', 'active')
    .where('private_jwk_sealed', 'is not', null)
    .execute();
}

export function retireSigningKey(db: DbOrTrx, kid: string) {
  return db
    .updateTable('signing_keys')
    .set({ status: 'retired', retired_at: sql`now()` })
    .where('kid', '=', kid)
    .where('status', '=', 'previous')
    .returning('kid')
    .executeTakeFirst();
}
