import type { Static } from '@sinclair/typebox';
import type {
  ActionItem,
  ActionItemList,
  AirlineSettings,
  AirlineView,
  Booking,
  BookingList,
  BookingStatusView,
  ChangeRequest,
  ClientRegistration,
  CompanyConfig,
  Contract,
  CreatedUser,
  HotelConfig,
  ProcessingStatus,
  RetryJob,
  ScheduleAccepted,
  TokenResponse,
  TravellerView,
} from '@crew/contracts';
import type { Stack } from './stack';
import { waitFor } from './wait';
import { onePairingRoster } from './rosters';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface HttpInit {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  raw?: string | Buffer;
}

/**
 * fetch with JSON in and out; never throws on HTTP status. The body is untyped: a test that probes errors,
 * odd inputs or a route not in `Routes` reads it as it likes; `request` types the routes tests rely on.
 */
export async function http<T = any>(url: string, init: HttpInit = {}): Promise<HttpResult<T>> {
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

/**
 * The success body of each route tests call through `request` (method and Express path, as the services
 * declare them), by the contracts' TypeBox schema: `Static<typeof Schema>` is the body's type.
 */
export interface Routes {
  'POST /ops/v1/airlines': typeof AirlineView;
  'PATCH /ops/v1/airlines/:airline_id/settings': typeof AirlineSettings;
  'POST /ops/v1/airlines/:airline_id/users': typeof CreatedUser;
  'PUT /ops/v1/airlines/:airline_id/travellers/:traveller_email': typeof TravellerView;
  'POST /ops/v1/change-requests/:request_id/decide': typeof ChangeRequest;
  'POST /oauth/register': typeof ClientRegistration;
  'POST /oauth/token': typeof TokenResponse;
  'PUT /api/v1/crew/config/company': typeof CompanyConfig;
  'PUT /api/v1/crew/config/hotels': typeof HotelConfig;
  'POST /api/v1/crew/config/hotels/:hotel_config_id/contracts': typeof Contract;
  'PUT /api/v1/crew/config/hotels/:hotel_config_id/contracts/:contract_id/rates': typeof Contract;
  'POST /api/v1/crew/config/hotels/change-requests': typeof ChangeRequest;
  'POST /api/v1/crew/schedules': typeof ScheduleAccepted;
  'GET /api/v1/crew/schedules/:schedule_id/processing-status': typeof ProcessingStatus;
  'GET /api/v1/crew/schedules/:schedule_id/action-items': typeof ActionItemList;
  'GET /api/v1/crew/bookings': typeof BookingList;
  'GET /api/v1/crew/bookings/:booking_id': typeof Booking;
  'GET /api/v1/crew/bookings/:booking_id/status': typeof BookingStatusView;
  'GET /api/v1/crew/bookings/retry-jobs/:retry_job_id': typeof RetryJob;
}

export type Route = keyof Routes;
/** The body of a route's success answer. */
export type RouteBody<R extends Route> = Static<Routes[R]>;
type PathOf<R extends string> = R extends `${string} ${infer P}` ? P : never;
type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;
type RouteParams<R extends Route> = [ParamNames<PathOf<R>>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<PathOf<R>>, string> };

/**
 * Calls `route` ('METHOD /path/:param') on the stack (`/oauth` on the auth service, the rest on the api),
 * with its path parameters filled in (URL-encoded) and `query` appended. The body is typed by the route's
 * success schema; a test checks `status` before reading it.
 */
export function request<R extends Route>(
  stack: Pick<Stack, 'apiUrl' | 'authUrl'>,
  route: R,
  init: Omit<HttpInit, 'method'> & RouteParams<R> & { query?: string | Record<string, string> },
): Promise<HttpResult<RouteBody<R>>> {
  const [method, template] = route.split(' ') as [string, string];
  const {
    params = {},
    query,
    ...rest
  } = init as Omit<HttpInit, 'method'> & { params?: Record<string, string>; query?: string | Record<string, string> };
  const path = template.replace(/:([a-z_]+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${route}: no ${name}`);
    return encodeURIComponent(params[name]);
  });
  const search =
    query === undefined
      ? ''
      : typeof query === 'string'
        ? query.replace(/^\?/, '')
        : new URLSearchParams(query).toString();
  const base = path.startsWith('/oauth/') ? stack.authUrl : stack.apiUrl;
  return http<RouteBody<R>>(`${base}${path}${search ? `?${search}` : ''}`, { ...rest, method });
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
export async function onboard(
  stack: Stack,
  opts: { name?: string; carrier?: string; scopes?: string; settings?: Record<string, unknown> } = {},
): Promise<Tenant> {
  const ops = { token: stack.opsToken };
  const airline = await request(stack, 'POST /ops/v1/airlines', {
    ...ops,
    body: { name: opts.name ?? 'Test Air', carrier_code: opts.carrier ?? 'TA' },
  });
  if (airline.status !== 201) throw new Error(`create airline: ${airline.status} ${airline.text}`);
  const airlineId = airline.body.airline_id;
  if (opts.settings) {
    const s = await request(stack, 'PATCH /ops/v1/airlines/:airline_id/settings', {
      ...ops,
      params: { airline_id: airlineId },
      body: opts.settings,
    });
    if (s.status !== 200) throw new Error(`settings: ${s.status} ${s.text}`);
  }
  const email = `user-${airlineId.slice(0, 8)}@example.com`;
  const user = await request(stack, 'POST /ops/v1/airlines/:airline_id/users', {
    ...ops,
    params: { airline_id: airlineId },
    body: { email },
  });
  if (user.status !== 201) throw new Error(`create user: ${user.status} ${user.text}`);
  const q = new URLSearchParams({ name: 'crew-system' });
  if (opts.scopes) q.set('scopes', opts.scopes);
  const client = await request(stack, 'POST /oauth/register', {
    query: q.toString(),
    token: `${user.body.user_id}:${user.body.user_token}`,
  });
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

export function clientToken(
  stack: Stack,
  clientId: string,
  secret: string,
): Promise<HttpResult<RouteBody<'POST /oauth/token'>>> {
  const basic = Buffer.from(`${clientId}:${secret}`).toString('base64');
  return request(stack, 'POST /oauth/token', {
    query: 'grant_type=client_credentials',
    headers: { authorization: `Basic ${basic}` },
  });
}

/** Polls processing-status until poll_recommended is false (or the deadline passes). */
export async function waitForSchedule(
  stack: Stack,
  token: string,
  scheduleId: string,
  deadlineMs = 30_000,
): Promise<RouteBody<'GET /api/v1/crew/schedules/:schedule_id/processing-status'>> {
  let last = 'unknown';
  return waitFor(
    async () => {
      const res = await request(stack, 'GET /api/v1/crew/schedules/:schedule_id/processing-status', {
        token,
        params: { schedule_id: scheduleId },
      });
      if (res.status !== 200) throw new Error(`processing-status ${res.status}: ${res.text}`);
      last = res.body.status;
      return !res.body.poll_recommended && res.body;
    },
    deadlineMs,
    () => `schedule ${scheduleId} (still ${last})`,
    100,
  );
}

/** Polls a booking until it leaves PENDING (its task has settled) and returns it. */
export async function settledBooking(
  stack: Stack,
  token: string,
  bookingId: string,
  timeoutMs = 15_000,
): Promise<RouteBody<'GET /api/v1/crew/bookings/:booking_id'>> {
  let last = 'unknown';
  return waitFor(
    async () => {
      const res = await request(stack, 'GET /api/v1/crew/bookings/:booking_id', {
        token,
        params: { booking_id: bookingId },
      });
      if (res.status !== 200) throw new Error(`booking ${res.status}: ${res.text}`);
      last = res.body.status;
      return res.body.status !== 'PENDING' && res.body;
    },
    timeoutMs,
    () => `booking ${bookingId} to settle (still ${last})`,
    100,
  );
}

/** Every action item of a schedule, following cursors (`query`: more `&name=value` filters). */
export async function allActionItems(
  stack: Stack,
  token: string,
  scheduleId: string,
  query = '',
): Promise<Static<typeof ActionItem>[]> {
  const items: Static<typeof ActionItem>[] = [];
  let cursor: string | null = null;
  do {
    const res: HttpResult<RouteBody<'GET /api/v1/crew/schedules/:schedule_id/action-items'>> = await request(
      stack,
      'GET /api/v1/crew/schedules/:schedule_id/action-items',
      {
        token,
        params: { schedule_id: scheduleId },
        query: `limit=200${query}${cursor ? `&cursor=${cursor}` : ''}`,
      },
    );
    if (res.status !== 200) throw new Error(`action-items ${res.status}: ${res.text}`);
    items.push(...res.body.action_items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

/**
 * An airline with schedules access whose webhook endpoint at `url` hears schedule.processing_completed, and a
 * one-pairing roster of it processed to COMPLETED (the event is then on its way to `url`).
 */
export async function scheduleCompletedWithSubscriber(
  stack: Stack,
  airline: { name: string; carrier: string },
  url: string,
): Promise<{ tenant: Tenant; endpointId: string }> {
  const tenant = await onboard(stack, {
    ...airline,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const endpoint = await http(`${stack.apiUrl}/api/v1/crew/webhooks`, {
    method: 'POST',
    token: tenant.accessToken,
    body: { url, event_types: ['schedule.processing_completed'] },
  });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint ${endpoint.status}: ${endpoint.text}`);
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    method: 'POST',
    token: tenant.accessToken,
    body: onePairingRoster(),
  });
  if (res.status !== 202) throw new Error(`schedule ${res.status}: ${res.text}`);
  const done = await waitForSchedule(stack, tenant.accessToken, res.body.schedule_id as string);
  if (done.status !== 'COMPLETED') throw new Error(`schedule ended ${done.status}`);
  return { tenant, endpointId: endpoint.body.endpoint_id as string };
}
