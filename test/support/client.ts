import type { Stack } from './stack';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** fetch with JSON in and out; never throws on HTTP status. */
export async function http<T = any>(url: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string>; raw?: string | Buffer } = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

export interface Tenant {
  airlineId: string;
  userId: string;
  userToken: string;
  email: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  refreshToken: string;
}

/** Operator creates an airline and a user; the user registers a client and gets a token. */
export async function onboard(stack: Stack, opts: { name?: string; carrier?: string; scopes?: string; settings?: Record<string, unknown> } = {}): Promise<Tenant> {
  const ops = { token: stack.opsToken };
  const airline = await http(`${stack.apiUrl}/ops/v1/airlines`, { ...ops, method: 'POST', body: { name: opts.name ?? 'Test Air', carrier_code: opts.carrier ?? 'TA' } });
  if (airline.status !== 201) throw new Error(`create airline: ${airline.status} ${airline.text}`);
  const airlineId = airline.body.airline_id as string;
  if (opts.settings) {
    const s = await http(`${stack.apiUrl}/ops/v1/airlines/${airlineId}/settings`, { ...ops, method: 'PATCH', body: opts.settings });
    if (s.status !== 200) throw new Error(`settings: ${s.status} ${s.text}`);
  }
  const email = `user-${airlineId.slice(0, 8)}@example.com`;
  const user = await http(`${stack.apiUrl}/ops/v1/airlines/${airlineId}/users`, { ...ops, method: 'POST', body: { email } });
  if (user.status !== 201) throw new Error(`create user: ${user.status} ${user.text}`);
  const q = new URLSearchParams({ name: 'crew-system' });
  if (opts.scopes) q.set('scopes', opts.scopes);
  const client = await http(`${stack.authUrl}/oauth/register?${q.toString()}`, { method: 'POST', token: `${user.body.user_id}:${user.body.user_token}` });
  if (client.status !== 201) throw new Error(`register: ${client.status} ${client.text}`);
  const token = await clientToken(stack, client.body.client_id, client.body.client_secret);
  if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
  return {
    airlineId,
    userId: user.body.user_id,
    userToken: user.body.user_token,
    email,
    clientId: client.body.client_id,
    clientSecret: client.body.client_secret,
    accessToken: token.body.access_token,
    refreshToken: token.body.refresh_token,
  };
}

export function clientToken(stack: Stack, clientId: string, secret: string) {
  const basic = Buffer.from(`${clientId}:${secret}`).toString('base64');
  return http(`${stack.authUrl}/oauth/token?grant_type=client_credentials`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
}

/** Polls processing-status until poll_recommended is false (or the deadline passes). */
export async function waitForSchedule(stack: Stack, token: string, scheduleId: string, deadlineMs = 30_000): Promise<any> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const res = await http(`${stack.apiUrl}/api/v1/crew/schedules/${scheduleId}/processing-status`, { token });
    if (res.status !== 200) throw new Error(`processing-status ${res.status}: ${res.text}`);
    if (!res.body.poll_recommended) return res.body;
    if (Date.now() > until) throw new Error(`schedule ${scheduleId} still ${res.body.status} after ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every action item of a schedule, following cursors. */
export async function allActionItems(stack: Stack, token: string, scheduleId: string, query = ''): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const res: HttpResult = await http(`${stack.apiUrl}/api/v1/crew/schedules/${scheduleId}/action-items?limit=200${query}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    if (res.status !== 200) throw new Error(`action-items ${res.status}: ${res.text}`);
    items.push(...res.body.action_items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}
