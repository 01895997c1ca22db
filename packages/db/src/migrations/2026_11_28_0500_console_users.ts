import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The travel desk's console: its people (each with a login of their own, invited by the airline's integration),
// their invitations and their sessions. Invitation tokens and session ids are stored only as hashes; a password
// only as a salted memory-hard hash; an authenticator secret only sealed by the services' keyring. One active
// (not revoked) person per e-mail and airline; a revoked person's e-mail may be invited again.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table if not exists console_users (
    user_id uuid primary key default gen_random_uuid(),
    airline_id uuid not null references airlines (airline_id) on delete cascade,
    email text not null,
    role text not null check (role in ('AGENT', 'VIEWER')),
    password_hash text,
    totp_secret_sealed text,
    totp_enabled_at timestamptz,
    totp_last_step bigint,
    created_at timestamptz not null default now(),
    revoked_at timestamptz
  )`.execute(db);
  await sql`create unique index if not exists console_users_active_email_uq on console_users (airline_id, email) where revoked_at is null`.execute(
    db,
  );
  // Sign-in looks a person up by e-mail alone (the page names no airline).
  await sql`create index if not exists console_users_email_ix on console_users (email) where revoked_at is null`.execute(
    db,
  );
  await sql`create table if not exists console_invitations (
    token_hash text primary key,
    user_id uuid not null references console_users (user_id) on delete cascade,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index if not exists console_invitations_user_ix on console_invitations (user_id)`.execute(db);
  await sql`create table if not exists console_sessions (
    session_id_hash text primary key,
    user_id uuid not null references console_users (user_id) on delete cascade,
    csrf_token text not null,
    created_at timestamptz not null,
    last_seen_at timestamptz not null,
    revoked_at timestamptz
  )`.execute(db);
  await sql`create index if not exists console_sessions_user_ix on console_sessions (user_id) where revoked_at is null`.execute(
    db,
  );
  await sql`create table if not exists console_settings (
    airline_id uuid primary key references airlines (airline_id) on delete cascade,
    require_totp boolean not null default false,
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists console_settings`.execute(db);
  await sql`drop table if exists console_sessions`.execute(db);
  await sql`drop table if exists console_invitations`.execute(db);
  await sql`drop table if exists console_users`.execute(db);
}
