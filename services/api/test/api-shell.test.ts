import { createHmac, randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { gzipSync } from 'node:zlib';
import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let tenant: Tenant;
const company = () => `${stack.apiUrl}/api/v1/crew/config/company`;

beforeAll(async () => {
  stack = await startStack('api_shell');
  tenant = await onboard(stack);
});
afterAll(() => stack.close());

/** The auth service's active key (its private half is sealed in the table: the key store opens it). */
function activeKey() {
  return stack.keys.signingKey();
}

function claims(overrides: Record<string, unknown> = {}) {
  return {
    airline_id: tenant.airlineId,
    user_id: tenant.userId,
    email: tenant.email,
    scope: 'events:read events:write',
    ...overrides,
  };
}

type SigningKey = Parameters<SignJWT['sign']>[0];

/** `exp` / `iat`: null leaves the claim out. */
async function sign(
  opts: {
    iss?: string;
    aud?: string;
    exp?: number | null;
    iat?: number | null;
    key?: SigningKey;
    kid?: string;
    extra?: Record<string, unknown>;
  } = {},
) {
  const active = await activeKey();
  const key = opts.key ?? active.key;
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims(opts.extra))
    .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? active.kid })
    .setIssuer(opts.iss ?? stack.authUrl)
    .setAudience(opts.aud ?? 'crew-travel-api')
    .setSubject(tenant.clientId);
  if (opts.iat !== null) jwt.setIssuedAt(opts.iat ?? now - 60);
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? now + 600);
  return jwt.sign(key);
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}

describe('bearer verification', () => {
  it('accepts a token issued by the auth service', async () => {
    const res = await http(company(), { token: tenant.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      crew_booker_email: null,
      cancellation_lookback_days: 0,
      rate_match_mode: 'STRICT',
    });
  });

  it('answers 401 UNAUTHORIZED in the envelope for a missing bearer', async () => {
    const res = await http(company());
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['a malformed bearer', async () => 'not.a.jwt'],
    ['an expired token', async () => sign({ exp: Math.floor(Date.now() / 1000) - 120 })],
    [
      'a token signed by another key with the same kid',
      async () => sign({ key: (await generateKeyPair('ES256')).privateKey }),
    ],
    [
      'a token signed by another key with an unknown kid',
      async () => sign({ key: (await generateKeyPair('ES256')).privateKey, kid: 'unknown-kid' }),
    ],
    ['a token with the wrong audience', async () => sign({ aud: 'someone-else' })],
    ['a token with the wrong issuer', async () => sign({ iss: 'http://evil.example' })],
    [
      'an alg:none token',
      async () =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(), iss: stack.authUrl, aud: 'crew-travel-api', sub: tenant.clientId, exp: Math.floor(Date.now() / 1000) + 600 })}.`,
    ],
    [
      'an HS256 token keyed with the public key',
      async () => {
        const jwks = (await http(`${stack.authUrl}/.well-known/jwks.json`)).body.keys[0];
        const header = b64({ alg: 'HS256', typ: 'JWT', kid: jwks.kid });
        const payload = b64({
          ...claims(),
          iss: stack.authUrl,
          aud: 'crew-travel-api',
          sub: tenant.clientId,
          exp: Math.floor(Date.now() / 1000) + 600,
        });
        const sig = createHmac('sha256', JSON.stringify(jwks)).update(`${header}.${payload}`).digest('base64url');
        return `${header}.${payload}.${sig}`;
      },
    ],
  ])('answers 401 UNAUTHORIZED for %s', async (_label, make) => {
    const res = await http(company(), { token: await make() });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });

  // A validly signed token is trusted only within its claims' rules.
  const now = () => Math.floor(Date.now() / 1000);
  it.each([
    ['a token without exp', () => sign({ exp: null })],
    ['a token without iat', () => sign({ iat: null })],
    ['a token living longer than an hour (exp - iat)', () => sign({ iat: now() - 60, exp: now() + 2 * 3600 })],
    ['a token issued more than an hour ago', () => sign({ iat: now() - 2 * 3600, exp: now() + 60 })],
    ['a token issued in the future', () => sign({ iat: now() + 120, exp: now() + 600 })],
    ['a token of an airline that does not exist', () => sign({ extra: { airline_id: randomUUID() } })],
    ['a token whose airline_id is not a UUID', () => sign({ extra: { airline_id: "x' or '1'='1" } })],
    ['a token whose airline_id is not a string', () => sign({ extra: { airline_id: 42 } })],
  ])('answers 401 UNAUTHORIZED for %s (validly signed)', async (_label, make) => {
    const token = await make();
    for (const url of [company(), `${stack.apiUrl}/api/v1/crew/bookings`]) {
      expectEnvelope(await http(url, { token }), 401, 'UNAUTHORIZED');
    }
  });

  it('accepts the token once its airline exists (an unknown airline is not remembered)', async () => {
    const airlineId = randomUUID();
    const token = await sign({ extra: { airline_id: airlineId } });
    expectEnvelope(await http(company(), { token }), 401, 'UNAUTHORIZED');
    await stack.database.db
      .insertInto('airlines')
      .values({ airline_id: airlineId, name: 'Late Air', carrier_code: 'LA' })
      .execute();
    await stack.database.db
      .insertInto('company_configs')
      .values({ airline_id: airlineId, crew_booker_email: null })
      .execute();
    expect((await http(company(), { token })).status).toBe(200);
  });

  it('answers 403 INSUFFICIENT_SCOPE when the token lacks the scope', async () => {
    const readOnly = await sign({ extra: { scope: 'events:read' } });
    expect((await http(company(), { token: readOnly })).status).toBe(200);
    const res = await http(company(), { method: 'PUT', token: readOnly, body: { crew_booker_email: 'a@b.co' } });
    expectEnvelope(res, 403, 'INSUFFICIENT_SCOPE');
  });

  it('takes the tenant from the token only', async () => {
    const other = await onboard(stack, { name: 'Other Air', carrier: 'OA' });
    await http(company(), { method: 'PUT', token: other.accessToken, body: { crew_booker_email: 'booker@other.air' } });
    const mine = await http(company(), { token: tenant.accessToken, headers: { 'x-airline-id': other.airlineId } });
    expect(mine.body.crew_booker_email).not.toBe('booker@other.air');
  });
});

describe('error envelope', () => {
  it('malformed JSON → 400 INVALID_REQUEST', async () => {
    const res = await http(company(), {
      method: 'PUT',
      token: tenant.accessToken,
      raw: '{"crew_booker_email":',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'INVALID_REQUEST');
  });

  it('unknown route → 404 NOT_FOUND, wrong method → 405 with Allow', async () => {
    expectEnvelope(await http(`${stack.apiUrl}/api/v1/nothing-here`, { token: tenant.accessToken }), 404, 'NOT_FOUND');
    expectEnvelope(await http(`${stack.apiUrl}/elsewhere`), 404, 'NOT_FOUND');
    const res = await http(company(), { method: 'DELETE', token: tenant.accessToken });
    expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toContain('PUT');
  });

  it('a body over the limit → 413 in the envelope, nothing stored', async () => {
    const huge = JSON.stringify({ crew_booker_email: 'a@b.co', pad: 'x'.repeat(2 * 1024 * 1024) });
    const res = await http(company(), {
      method: 'PUT',
      token: tenant.accessToken,
      raw: huge,
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
    expect((await http(company(), { token: tenant.accessToken })).body.crew_booker_email).toBeNull();
  });

  it('an unexpected property → 422 VALIDATION_FAILED with details[{field, issue}]', async () => {
    const res = await http(company(), {
      method: 'PUT',
      token: tenant.accessToken,
      body: { crew_booker_email: 'a@b.co', surprise: 1 },
    });
    expectEnvelope(res, 422, 'VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([{ field: '/surprise', issue: 'is not an allowed property' }]);
    expect((await http(company(), { token: tenant.accessToken })).body.crew_booker_email).toBeNull();
  });

  it('accepts gzip-encoded JSON bodies', async () => {
    const res = await fetch(company(), {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${tenant.accessToken}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify({ crew_booker_email: 'gz@test.air', cancellation_lookback_days: 2 })),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ crew_booker_email: 'gz@test.air', cancellation_lookback_days: 2 });
  });

  it('reuses X-Request-Id or mints one, and echoes it', async () => {
    const given = await http(company(), { token: tenant.accessToken, headers: { 'x-request-id': 'req-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('req-abc.123');
    const minted = await http(company(), { token: tenant.accessToken });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('company config', () => {
  it('PUT keeps omitted fields and rejects a negative lookback', async () => {
    const t = await onboard(stack, { name: 'Config Air', carrier: 'CF' });
    const url = company();
    const missing = await http(url, { method: 'PUT', token: t.accessToken, body: { cancellation_lookback_days: 1 } });
    expectEnvelope(missing, 422, 'VALIDATION_FAILED');
    expect(
      (
        await http(url, {
          method: 'PUT',
          token: t.accessToken,
          body: { crew_booker_email: 'crew@config.air', cancellation_lookback_days: 3 },
        })
      ).status,
    ).toBe(200);
    const kept = await http(url, { method: 'PUT', token: t.accessToken, body: { cancellation_lookback_days: 5 } });
    expect(kept.body).toMatchObject({ crew_booker_email: 'crew@config.air', cancellation_lookback_days: 5 });
    const kept2 = await http(url, {
      method: 'PUT',
      token: t.accessToken,
      body: { crew_booker_email: 'new@config.air' },
    });
    expect(kept2.body).toMatchObject({ crew_booker_email: 'new@config.air', cancellation_lookback_days: 5 });
    expectEnvelope(
      await http(url, { method: 'PUT', token: t.accessToken, body: { cancellation_lookback_days: -1 } }),
      422,
      'VALIDATION_FAILED',
    );
  });
});

describe('health', () => {
  it('/healthz and /readyz answer 200 when Postgres is migrated and Redis reachable', async () => {
    expect((await http(`${stack.apiUrl}/healthz`)).status).toBe(200);
    const ready = await http(`${stack.apiUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: true, migrations: true, redis: true });
  });
});

describe('logs', () => {
  it('never carry the bearer token, a client secret or a refresh token', async () => {
    await http(company(), { token: tenant.accessToken });
    await http(`${stack.authUrl}/oauth/refresh?refresh_token=${tenant.refreshToken}`, { method: 'POST' });
    const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64');
    await http(`${stack.authUrl}/oauth/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    const all = stack.logLines.join('\n');
    expect(stack.logLines.length).toBeGreaterThan(5);
    for (const secret of [
      tenant.accessToken,
      tenant.clientSecret,
      tenant.refreshToken,
      basic,
      stack.opsToken,
      tenant.userToken,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain('"request_id"');
  });
});
