import type { DbOrTrx } from '../database';
import type { ConsoleUserRole } from './console.table';

/*
 * The travel desk's console: its people, their invitations and sessions, and the airline's console settings.
 * Every time is given by the caller (the services' clock), so expiry is decided on one clock. Tokens and
 * session ids arrive here already hashed; passwords already hashed; authenticator secrets already sealed.
 */

const USER_COLUMNS = [
  'u.user_id',
  'u.airline_id',
  'u.email',
  'u.role',
  'u.password_hash',
  'u.totp_secret_sealed',
  'u.totp_enabled_at',
  'u.totp_last_step',
  'u.created_at',
] as const;

/**
 * A new person and their invitation (call it in a transaction); a second active person with the e-mail fails
 * on the unique index (23505).
 */
export async function insertUserWithInvitation(
  db: DbOrTrx,
  user: { airline_id: string; email: string; role: ConsoleUserRole },
  invitation: { token_hash: string; expires_at: Date },
) {
  const row = await db
    .insertInto('console_users')
    .values(user)
    .returning(['user_id', 'airline_id', 'email', 'role', 'created_at'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('console_invitations')
    .values({ ...invitation, user_id: row.user_id })
    .execute();
  return row;
}

/** The airline's people not revoked, oldest first. */
export function listUsers(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('console_users as u')
    .select(USER_COLUMNS)
    .where('u.airline_id', '=', airlineId)
    .where('u.revoked_at', 'is', null)
    .orderBy('u.created_at')
    .orderBy('u.user_id')
    .execute();
}

/**
 * Revokes one person of the airline and ends every session of theirs, in one statement; undefined when the
 * airline has no such active person (another airline's id included).
 */
export function revokeUser(db: DbOrTrx, airlineId: string, userId: string, at: Date) {
  return db
    .with('revoked', (q) =>
      q
        .updateTable('console_users')
        .set({ revoked_at: at })
        .where('airline_id', '=', airlineId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('user_id'),
    )
    .with('ended', (q) =>
      q
        .updateTable('console_sessions')
        .set({ revoked_at: at })
        .where('user_id', 'in', (eb) => eb.selectFrom('revoked').select('user_id'))
        .where('revoked_at', 'is', null)
        .returning('session_id_hash'),
    )
    .selectFrom('revoked')
    .select((eb) => [
      'revoked.user_id',
      eb.selectFrom('ended').select(eb.fn.countAll<number>().as('n')).as('sessions_ended'),
    ])
    .executeTakeFirst();
}

/** An invitation with its person, whatever its state (the page tells used, expired and revoked apart). */
export function findInvitation(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('console_invitations as i')
    .innerJoin('console_users as u', 'u.user_id', 'i.user_id')
    .select(['i.user_id', 'i.expires_at', 'i.used_at', 'u.email', 'u.airline_id', 'u.revoked_at'])
    .where('i.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Uses an invitation once and sets the person's password, in one statement: only the first caller of an
 * unexpired, unused invitation of a person not revoked gets the user id back, and a password that cannot be
 * stored leaves the invitation unused (the link still works).
 */
export function acceptInvitation(db: DbOrTrx, tokenHash: string, passwordHash: string, at: Date) {
  return db
    .with('used', (q) =>
      q
        .updateTable('console_invitations as i')
        .from('console_users as u')
        .set({ used_at: at })
        .whereRef('u.user_id', '=', 'i.user_id')
        .where('i.token_hash', '=', tokenHash)
        .where('i.used_at', 'is', null)
        .where('i.expires_at', '>', at)
        .where('u.revoked_at', 'is', null)
        .returning(['i.user_id']),
    )
    .updateTable('console_users')
    .set({ password_hash: passwordHash })
    .where('user_id', 'in', (eb) => eb.selectFrom('used').select('used.user_id'))
    .returning(['user_id'])
    .executeTakeFirst();
}

/** Active people with this e-mail and a password, across airlines (the sign-in page names no airline). */
export function findSignInCandidates(db: DbOrTrx, email: string, limit = 5) {
  return db
    .selectFrom('console_users as u')
    .select(USER_COLUMNS)
    .where('u.email', '=', email)
    .where('u.revoked_at', 'is', null)
    .where('u.password_hash', 'is not', null)
    .orderBy('u.created_at')
    .limit(limit)
    .execute();
}

export function insertSession(
  db: DbOrTrx,
  row: { session_id_hash: string; user_id: string; csrf_token: string; created_at: Date },
) {
  return db
    .insertInto('console_sessions')
    .values({ ...row, last_seen_at: row.created_at })
    .execute();
}

/** Forgets a person's sessions that ended (revoked) or started before `startedBefore`: nothing can revive them. */
export function pruneSessions(db: DbOrTrx, userId: string, startedBefore: Date) {
  return db
    .deleteFrom('console_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('created_at', '<', startedBefore)]))
    .execute();
}

/** A session with its person and the airline's console settings; the caller decides whether it is still live. */
export function findSession(db: DbOrTrx, sessionIdHash: string) {
  return db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.user_id', 's.user_id')
    .leftJoin('console_settings as cs', 'cs.airline_id', 'u.airline_id')
    .select([
      's.session_id_hash',
      's.csrf_token',
      's.created_at as session_created_at',
      's.last_seen_at',
      's.revoked_at as session_revoked_at',
      'u.revoked_at as user_revoked_at',
      'cs.require_totp',
      ...USER_COLUMNS,
    ])
    .where('s.session_id_hash', '=', sessionIdHash)
    .executeTakeFirst();
}

export function touchSession(db: DbOrTrx, sessionIdHash: string, at: Date) {
  return db
    .updateTable('console_sessions')
    .set({ last_seen_at: at })
    .where('session_id_hash', '=', sessionIdHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export function revokeSession(db: DbOrTrx, sessionIdHash: string, at: Date) {
  return db
    .updateTable('console_sessions')
    .set({ revoked_at: at })
    .where('session_id_hash', '=', sessionIdHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of the person not ended yet (they enabled an authenticator app); how many ended. */
export async function revokeUserSessions(db: DbOrTrx, userId: string, at: Date): Promise<number> {
  const result = await db
    .updateTable('console_sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The authenticator secret this live session was shown to enrol, if any (sealed). */
export async function findPendingTotp(db: DbOrTrx, sessionIdHash: string): Promise<string | null> {
  const row = await db
    .selectFrom('console_sessions')
    .select('totp_pending_sealed')
    .where('session_id_hash', '=', sessionIdHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.totp_pending_sealed ?? null;
}

/** Keeps the authenticator secret shown to this session to enrol (not yet in force). */
export function setPendingTotp(db: DbOrTrx, sessionIdHash: string, sealed: string) {
  return db
    .updateTable('console_sessions')
    .set({ totp_pending_sealed: sealed })
    .where('session_id_hash', '=', sessionIdHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Puts the authenticator secret `sealed` in force, taking the code of 30-second step `step` with it: false when
 * the person has one in force already, is revoked, or a code of that step or a later one was taken.
 */
export async function enableTotp(
  db: DbOrTrx,
  userId: string,
  sealed: string,
  step: number,
  at: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('console_users')
    .set({ totp_secret_sealed: sealed, totp_enabled_at: at, totp_last_step: step })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('totp_enabled_at', 'is', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the code of 30-second step `step` once: false when a code of that step or a later one was taken
 * already (a code seen on the wire cannot be replayed).
 */
export async function takeTotpStep(db: DbOrTrx, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('console_users')
    .set({ totp_last_step: step })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export function findSettings(db: DbOrTrx, airlineId: string) {
  return db.selectFrom('console_settings').selectAll().where('airline_id', '=', airlineId).executeTakeFirst();
}

export function putSettings(db: DbOrTrx, airlineId: string, requireTotp: boolean, at: Date) {
  return db
    .insertInto('console_settings')
    .values({ airline_id: airlineId, require_totp: requireTotp, updated_at: at })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ require_totp: requireTotp, updated_at: at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
