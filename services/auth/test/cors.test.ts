import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

/*
 * /docs "Authorize": Swagger UI on the api's origin fetches a token from the auth service,
 * another origin. The browser sends a preflight (POST with Authorization) and then needs
 * Access-Control-Allow-Origin on the answer.
 */

let stack: Stack;
let tenant: Tenant;
const ORIGIN = 'http://127.0.0.1:3000';

beforeAll(async () => {
  stack = await startStack('auth-cors');
  tenant = await onboard(stack);
});
afterAll(() => stack.close());

const preflight = (path: string, origin = ORIGIN) =>
  fetch(`${stack.authUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type,x-requested-with',
    },
  });

describe('CORS on the token endpoints', () => {
  it.each(['/oauth/token', '/oauth/refresh'])(
    'a preflight OPTIONS %s from any origin is answered 204 with the CORS headers',
    async (path) => {
      for (const origin of [ORIGIN, 'https://integrator.example']) {
        const res = await preflight(path, origin);
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-methods')).toContain('POST');
        expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
          expect.arrayContaining(['authorization', 'content-type', 'x-requested-with']),
        );
        // No cookies or other ambient credentials are involved: credentials mode stays off.
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      }
    },
  );

  it('the token request itself (form body, as Swagger UI sends it) carries Access-Control-Allow-Origin', async () => {
    const res = await fetch(`${stack.authUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        Origin: ORIGIN,
        Authorization: `Basic ${Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Requested-With': 'XMLHttpRequest',
      },
      // Swagger UI's encoding of the scopes ticked in its dialog.
      body: 'grant_type=client_credentials&scope=events:read+events:write',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      scope: 'events:read events:write',
    });
    // An error answer too, so the page can show it.
    const refused = await http(`${stack.authUrl}/oauth/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { origin: ORIGIN, authorization: 'Basic Zm9vOmJhcg==' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('registration (a user credential) does not answer cross-origin requests', async () => {
    const res = await fetch(`${stack.authUrl}/oauth/register`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
