/** A small HTTP client for the running stack: JSON in and out, onboarding, tokens that renew themselves. */

export interface HttpResult<T = any> {
  status: number;
  body: T;
  text: string;
}

export async function http<T = any>(
  url: string,
  init: {
    method?: string;
    body?: unknown;
    raw?: Buffer;
    token?: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    headers['content-type'] ??= 'application/json';
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body,
    signal: AbortSignal.timeout(init.timeoutMs ?? 120_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, text };
}

export function expectStatus(res: HttpResult, status: number, what: string): void {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 500)}`);
}

export interface StackUrls {
  apiUrl: string;
  authUrl: string;
  opsToken: string;
}

/** An airline's OAuth client; `token()` renews the access token (about 15 minutes) well before it expires. */
export class Tenant {
  private accessToken = '';
  private fetchedAt = 0;

  constructor(
    readonly urls: StackUrls,
    readonly airlineId: string,
    readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  async token(): Promise<string> {
    if (!this.accessToken || Date.now() - this.fetchedAt > 8 * 60_000) {
      const basic = Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64');
      const res = await http(`${this.urls.authUrl}/oauth/token?grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}` },
      });
      expectStatus(res, 200, 'client_credentials token');
      this.accessToken = res.body.access_token as string;
      this.fetchedAt = Date.now();
    }
    return this.accessToken;
  }

  async api<T = any>(path: string, init: Parameters<typeof http>[1] = {}): Promise<HttpResult<T>> {
    return http<T>(`${this.urls.apiUrl}/api/v1${path}`, { ...init, token: await this.token() });
  }
}

export const SCHEDULE_SCOPES = 'events:read events:write schedules:read schedules:write';

/** Operator creates the airline (schedules_access on), a user; the user registers a client with the schedules scopes. */
export async function onboard(urls: StackUrls, name: string, carrier: string): Promise<Tenant> {
  const ops = { token: urls.opsToken };
  const airline = await http(`${urls.apiUrl}/ops/v1/airlines`, {
    ...ops,
    method: 'POST',
    body: { name, carrier_code: carrier },
  });
  expectStatus(airline, 201, 'create airline');
  const airlineId = airline.body.airline_id as string;
  const settings = await http(`${urls.apiUrl}/ops/v1/airlines/${airlineId}/settings`, {
    ...ops,
    method: 'PATCH',
    body: { schedules_access: true },
  });
  expectStatus(settings, 200, 'settings');
  const user = await http(`${urls.apiUrl}/ops/v1/airlines/${airlineId}/users`, {
    ...ops,
    method: 'POST',
    body: { email: `bench-${airlineId.slice(0, 8)}@example.com` },
  });
  expectStatus(user, 201, 'create user');
  const q = new URLSearchParams({ name: 'bench-crew-system', scopes: SCHEDULE_SCOPES });
  const client = await http(`${urls.authUrl}/oauth/register?${q.toString()}`, {
    method: 'POST',
    token: `${user.body.user_id}:${user.body.user_token}`,
  });
  expectStatus(client, 201, 'register client');
  const tenant = new Tenant(urls, airlineId, client.body.client_id, client.body.client_secret);
  await tenant.token();
  return tenant;
}
