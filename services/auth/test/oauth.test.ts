import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { sql } from '@crew/db';
import { KeyStore } from '../src/key-store';
import { API_AUDIENCE } from '@crew/contracts';
import { Keyring } from '@crew/platform';
import { clientToken, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack('auth');
  tenant = await onboard(stack);
});
afterAll(() => stack.close());

const refresh = (token: string) =>
  http(`${stack.authUrl}/oauth/refresh?refresh_token=${encodeURIComponent(token)}`, { method: 'POST' });

describe('POST /oauth/token', () => {
  it('answers access_token (a JWT with the DESIGN claims), refresh_token, token_type Bearer, expires_in about 900 and scope', async () => {
    const res = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'events:read events:write',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const header = decodeProtectedHeader(res.body.access_token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({
      iss: stack.authUrl,
      aud: 'crew-travel-api',
      sub: tenant.clientId,
      airline_id: tenant.airlineId,
      user_id: tenant.userId,
      email: tenant.email,
      scope: 'events:read events:write',
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
  });

  it('refuses a wrong client secret and an unknown client with 401 UNAUTHORIZED', async () => {
    for (const res of [
      await clientToken(stack, tenant.clientId, 'wrong-secret'),
      await clientToken(stack, 'cl_unknown', tenant.clientSecret),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { code: 'UNAUTHORIZED', message: expect.any(String), details: [] },
        status: 401,
      });
    }
  });

  it('refuses a client id not of the issued shape (a NUL, too long, another alphabet) with 401, never a 500', async () => {
    const basic = (id: string, secret = tenant.clientSecret) =>
      http(`${stack.authUrl}/oauth/token?grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
      });
    for (const id of [
      'cl_%00',
      `${tenant.clientId}%00`,
      `${encodeURIComponent(tenant.clientId)}%00`,
      'cl_\u0000',
      `cl_${'x'.repeat(5000)}`,
      'cl_é',
    ]) {
      const res = await basic(id);
      expect({ id: id.slice(0, 40), status: res.status, code: res.body.error?.code }).toEqual({
        id: id.slice(0, 40),
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
    // The issued shape still works, percent-encoded or not.
    expect((await basic(encodeURIComponent(tenant.clientId))).status).toBe(200);
  });

  it('refuses a missing or unsupported grant_type with 400', async () => {
    const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64');
    const res = await http(`${stack.authUrl}/oauth/token?grant_type=password`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('POST /oauth/refresh', () => {
  it('works once; a reused refresh token is refused and revokes its whole family', async () => {
    const first = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    const r1 = await refresh(first.body.refresh_token);
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect(r1.body.refresh_token).not.toBe(first.body.refresh_token);

    const reuse = await refresh(first.body.refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('UNAUTHORIZED');

    // The rotated token belonged to the same family: revoked by the reuse.
    const afterReuse = await refresh(r1.body.refresh_token);
    expect(afterReuse.status).toBe(401);
  });

  it('does not touch other families', async () => {
    const a = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    const b = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    await refresh(a.body.refresh_token);
    await refresh(a.body.refresh_token);
    expect((await refresh(b.body.refresh_token)).status).toBe(200);
  });

  it('refuses an unknown or missing refresh token with 401', async () => {
    expect((await refresh('not-a-token')).status).toBe(401);
    expect((await http(`${stack.authUrl}/oauth/refresh`, { method: 'POST' })).status).toBe(401);
  });
});

describe('POST /oauth/register', () => {
  const register = (credential: string, scopes?: string) =>
    http(`${stack.authUrl}/oauth/register?name=x${scopes ? `&scopes=${encodeURIComponent(scopes)}` : ''}`, {
      method: 'POST',
      token: credential,
    });

  it('refuses a bad user credential with 401', async () => {
    for (const cred of [
      `${tenant.userId}:wrong`,
      'not-a-credential',
      `00000000-0000-0000-0000-000000000000:${tenant.userToken}`,
    ]) {
      const res = await register(cred);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await http(`${stack.authUrl}/oauth/register?name=x`, { method: 'POST' })).status).toBe(401);
  });

  it('refuses a user id of 36 hex digits and dashes that is not a uuid with 401, never a 500', async () => {
    for (const id of ['-'.repeat(36), `${'a'.repeat(32)}----`, `-${'b'.repeat(8)}-bbbb-bbbb-bbbb-${'b'.repeat(11)}`]) {
      const res = await register(`${id}:${tenant.userToken}`);
      expect({ id, status: res.status, code: res.body.error?.code }).toEqual({ id, status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('offers schedules:* only once the operator switches schedules_access on', async () => {
    const cred = `${tenant.userId}:${tenant.userToken}`;
    const before = await register(cred, 'schedules:read schedules:write');
    expect(before.status).toBe(400);
    expect(before.body.error.code).toBe('INVALID_SCOPE');
    expect((await register(cred)).body.scope).toBe('events:read events:write');

    const patch = await http(`${stack.apiUrl}/ops/v1/airlines/${tenant.airlineId}/settings`, {
      method: 'PATCH',
      token: stack.opsToken,
      body: { schedules_access: true },
    });
    expect(patch.status).toBe(200);
    const after = await register(cred, 'schedules:read schedules:write events:read');
    expect(after.status).toBe(201);
    expect(after.body.scope.split(' ').sort()).toEqual(['events:read', 'schedules:read', 'schedules:write']);
    const token = await clientToken(stack, after.body.client_id, after.body.client_secret);
    expect(token.body.scope.split(' ')).toContain('schedules:write');

    // Switched off again: tokens stop carrying the schedules scopes.
    await http(`${stack.apiUrl}/ops/v1/airlines/${tenant.airlineId}/settings`, {
      method: 'PATCH',
      token: stack.opsToken,
      body: { schedules_access: false },
    });
    const later = await clientToken(stack, after.body.client_id, after.body.client_secret);
    expect(later.body.scope).toBe('events:read');
  });

  it('refuses an unknown scope with 400 INVALID_SCOPE', async () => {
    const res = await register(`${tenant.userId}:${tenant.userToken}`, 'events:read admin');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SCOPE',
      details: [{ field: 'scopes', issue: expect.stringContaining('admin') }],
    });
  });
});

describe('signing keys', () => {
  it('publishes the active key in the JWKS, and a rotated-out key keeps verifying until retired', async () => {
    const jwks = await http(`${stack.authUrl}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const oldKid = decodeProtectedHeader(tenant.accessToken).kid;
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(oldKid);
    expect(jwks.body.keys.every((k: Record<string, unknown>) => k.d === undefined)).toBe(true);

    const newKid = await stack.keys.rotate();
    const fresh = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    expect(decodeProtectedHeader(fresh.body.access_token).kid).toBe(newKid);
    const kids = (await http(`${stack.authUrl}/.well-known/jwks.json`)).body.keys.map((k: { kid: string }) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, newKid]));

    expect(await stack.keys.retire(oldKid!)).toBe(true);
    const afterRetire = (await http(`${stack.authUrl}/.well-known/jwks.json`)).body.keys.map(
      (k: { kid: string }) => k.kid,
    );
    expect(afterRetire).toEqual([newKid]);
  });

  /** Verifies `token` against the JWKS the auth service publishes now; its kid. */
  async function verifies(token: string): Promise<string | undefined> {
    const jwks = createLocalJWKSet((await http(`${stack.authUrl}/.well-known/jwks.json`)).body);
    const { protectedHeader } = await jwtVerify(token, jwks, { issuer: stack.authUrl, audience: API_AUDIENCE });
    return protectedHeader.kid;
  }
  const restart = () => new KeyStore(stack.database.db, Keyring.parse(stack.config.supplierCredentialsKey), 0);
  const signWith = (keys: KeyStore) =>
    keys.sign(
      { airline_id: tenant.airlineId, scope: 'events:read' },
      tenant.clientId,
      stack.authUrl,
      API_AUDIENCE,
      900,
    );
  const storedKeys = () =>
    sql<{
      kid: string;
      status: string;
      private_jwk: Record<string, unknown> | null;
      private_jwk_sealed: string | null;
    }>`select * from signing_keys order by created_at`
      .execute(stack.database.db)
      .then((r) => r.rows);

  it('keeps private keys sealed: tokens signed before and after a restart verify; a key stored unsealed by the previous release keeps signing and is sealed', async () => {
    const before = (await clientToken(stack, tenant.clientId, tenant.clientSecret)).body.access_token;
    const activeKid = await verifies(before);
    const after = await signWith(restart());
    expect(await verifies(after)).toBe(activeKid);
    expect(await verifies(before)).toBe(activeKid);
    const active = (await storedKeys()).find((k) => k.kid === activeKid)!;
    expect(active.private_jwk).toBeNull();
    // Bound to its kid: the sealed key does not open as another key's.
    const keyring = Keyring.parse(stack.config.supplierCredentialsKey);
    expect(JSON.parse(keyring.open(active.private_jwk_sealed!, `signing-key:${activeKid}`))).toHaveProperty('d');
    expect(() => keyring.open(active.private_jwk_sealed!, 'signing-key:k-other')).toThrow();

    // A key the previous release made (a rotation run there): stored in plain text, no sealed copy.
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const [priv, pub] = await Promise.all([exportJWK(privateKey), exportJWK(publicKey)]);
    await stack.database.db.transaction().execute(async (trx) => {
      await sql`update signing_keys set status = 'previous' where status = 'active'`.execute(trx);
      await sql`insert into signing_keys (kid, alg, private_jwk, public_jwk, status)
        values ('k-legacy', 'ES256', ${JSON.stringify(priv)}, ${JSON.stringify(pub)}, 'active')`.execute(trx);
    });
    const restarted = restart();
    const legacySigned = await signWith(restarted);
    expect(await verifies(legacySigned)).toBe('k-legacy');
    // Sealed on load; the plain text stays while it is active (pods of the previous release read only that).
    let legacy = (await storedKeys()).find((k) => k.kid === 'k-legacy')!;
    expect(legacy.private_jwk_sealed).toEqual(expect.stringMatching(/^v2\./));
    expect(legacy.private_jwk).toMatchObject({ d: priv.d });
    // A key no longer active keeps no plain text.
    for (const k of await storedKeys())
      if (k.status !== 'active') expect([k.kid, k.private_jwk]).toEqual([k.kid, null]);

    // Once rotated out, its plain text goes; the new key exists sealed only; every token still verifies.
    const newKid = await restarted.rotate();
    legacy = (await storedKeys()).find((k) => k.kid === 'k-legacy')!;
    expect(legacy).toMatchObject({ status: 'previous', private_jwk: null });
    expect((await storedKeys()).find((k) => k.kid === newKid)).toMatchObject({ private_jwk: null });
    expect(await verifies(await signWith(restart()))).toBe(newKid);
    expect(await verifies(legacySigned)).toBe('k-legacy');
    expect(await verifies(after)).toBe(activeKid);
  });
});

describe('stored credentials', () => {
  it('keeps no plaintext client secret, user token, refresh token or private signing key in any table', async () => {
    const fresh = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    const secrets = [tenant.clientSecret, tenant.userToken, tenant.refreshToken, fresh.body.refresh_token];
    const tables = await stack.database.db.introspection.getTables();
    expect(tables.length).toBeGreaterThan(3);
    for (const t of tables) {
      const rows = await stack.database.db
        .selectFrom(t.name as never)
        .selectAll()
        .execute();
      const dump = JSON.stringify(rows);
      for (const s of secrets) expect(dump).not.toContain(s);
      // No private key material (a JWK's "d") either: the signing keys are sealed.
      expect([t.name, /"d":/.test(dump)]).toEqual([t.name, false]);
    }
  });
});
