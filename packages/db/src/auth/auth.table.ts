import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;

/** An OAuth 2.0 client of an airline; the secret is stored only as a hash. */
export interface OAuthClientTable {
  client_id: string;
  airline_id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  scopes: string[];
  created_at: CreatedAt;
  revoked_at: Date | null;
}
export type OAuthClient = Selectable<OAuthClientTable>;

/** One-time refresh tokens; all tokens rotated from one grant share a family, revoked together on reuse. */
export interface RefreshTokenTable {
  refresh_token_id: Generated<string>;
  token_hash: string;
  client_id: string;
  family_id: string;
  scope: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: CreatedAt;
}
export type RefreshToken = Selectable<RefreshTokenTable>;

export type SigningKeyStatus = 'active' | 'previous' | 'retired';

/**
 * JWT signing keys: one active; previous ones still verify until retired. The private key is sealed
 * (`private_jwk_sealed`, the keyring's `v2.…` bound to the kid); `private_jwk` is its plain copy, kept only on an
 * active key stored before keys were sealed (the previous release's pods read it), null otherwise.
 */
export interface SigningKeyTable {
  kid: string;
  alg: string;
  private_jwk: ColumnType<Record<string, unknown> | null, never, null>;
  private_jwk_sealed: ColumnType<string | null, string, string>;
  public_jwk: ColumnType<Record<string, unknown>, string, string>;
  status: SigningKeyStatus;
  created_at: CreatedAt;
  retired_at: Date | null;
}
export type SigningKey = Selectable<SigningKeyTable>;
