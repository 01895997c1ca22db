import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;

export type ConsoleUserRole = 'AGENT' | 'VIEWER';

/** A person of an airline's travel desk with a console login; revoked people stay for the record. */
export interface ConsoleUserTable {
  user_id: Generated<string>;
  airline_id: string;
  /** Lower case: one active person per e-mail and airline. */
  email: string;
  role: ConsoleUserRole;
  /** Salted memory-hard hash (the services make and check it); null until the invitation is used. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The authenticator secret as the services sealed it, in force once `totp_enabled_at` is (the one being
   * enrolled is the session's `totp_pending_sealed`; an earlier release kept it here before it was enabled).
   */
  totp_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The last 30-second step whose code was accepted: a code is never taken twice. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type ConsoleUserRow = Selectable<ConsoleUserTable>;

/** A single-use invitation link; only the token's hash is kept. */
export interface ConsoleInvitationTable {
  token_hash: string;
  user_id: string;
  expires_at: Date;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
}
export type ConsoleInvitationRow = Selectable<ConsoleInvitationTable>;

/** A signed-in browser; only the session id's hash is kept (the cookie holds the id). */
export interface ConsoleSessionTable {
  session_id_hash: string;
  user_id: string;
  /** The anti-forgery token every form of this session carries. */
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The authenticator secret this session was shown to enrol (sealed, bound to the person); enabling takes only it. */
  totp_pending_sealed: ColumnType<string | null, string | null | undefined, string | null>;
}
export type ConsoleSessionRow = Selectable<ConsoleSessionTable>;

/** The airline's console rules; no row: the defaults. */
export interface ConsoleSettingsTable {
  airline_id: string;
  require_totp: boolean;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type ConsoleSettingsRow = Selectable<ConsoleSettingsTable>;
