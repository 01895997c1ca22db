import type { TSchema } from '@sinclair/typebox';
import { ErrorEnvelope, SCOPES, WEBHOOK_EVENT_SCHEMAS, type RouteDoc, type Scope } from '@crew/contracts';
import { openApiPath } from '@crew/platform';
import { OPERATION_DESCRIPTIONS } from './descriptions';

/** What the document needs of a route: everything but the handler (probes are documented, not mounted, here). */
export type DocumentedRoute = RouteDoc;

export interface RouteGroup {
  /** Mount prefix of the group's express paths (`/api/v1`), or '' at the root. */
  prefix: string;
  routes: readonly DocumentedRoute[];
  /** Another host serves these paths (the auth service). */
  server?: { url: string; description: string };
}

/** The document's version: version 1 of the API (spec section 9). */
export const API_DOCUMENT_VERSION = '1.0.0';

export interface OpenApiInput {
  /** Defaults to API_DOCUMENT_VERSION. */
  version?: string;
  groups: readonly RouteGroup[];
  /** The auth service's base URL: the OAuth token endpoint of the security scheme. */
  authUrl: string;
}

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; contact: Json; license: Json };
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Json>;
  /** The events the service POSTs to airlines' webhook endpoints. */
  webhooks: Record<string, Json>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

/** The scope ladder of DESIGN section 2, shown in the OAuth2 security scheme. */
const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'events:read': 'Every GET under /crew except /crew/schedules, and GET /hotels',
  'events:write': 'Every POST/PUT/PATCH/DELETE under /crew except POST /crew/schedules',
  'schedules:read': 'Every GET under /crew/schedules (offered once the operator enables schedules_access)',
  'schedules:write':
    'POST /crew/schedules and its dry run POST /crew/schedules/preview (offered once the operator enables schedules_access)',
};

/** Route `auth` value → the security requirement and the scheme it names. */
function security(auth: string): Json[] {
  switch (auth) {
    case 'none':
      return [];
    case 'ops':
      return [{ operatorToken: [] }];
    case 'user':
      return [{ userCredential: [] }];
    case 'client':
      return [{ clientBasic: [] }];
    default:
      // Either requirement: the OAuth2 flow states the scope (and /docs "Authorize" gets a token with it: the
      // auth service answers CORS); a bearer obtained elsewhere can be pasted as accessToken.
      return [{ oauth2: [auth] }, { accessToken: [] }];
  }
}

function securitySchemes(authUrl: string): Record<string, Json> {
  return {
    oauth2: {
      type: 'oauth2',
      description:
        'Access token of an airline client (client_credentials grant at the auth service, about 15 minutes).',
      flows: {
        clientCredentials: {
          tokenUrl: `${authUrl}/oauth/token`,
          refreshUrl: `${authUrl}/oauth/refresh`,
          scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
        },
      },
    },
    accessToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An access token from the oauth2 flow, pasted as is.',
    },
    operatorToken: { type: 'http', scheme: 'bearer', description: 'The operator token (OPS_TOKEN).' },
    userCredential: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: '<user_id>:<user_token>',
      description: 'A user credential issued by the operator API, for client registration.',
    },
    clientBasic: {
      type: 'http',
      scheme: 'basic',
      description: 'client_id:client_secret of a registered OAuth client.',
    },
  };
}

/** What each tag groups, shown by /docs. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Configuration:
    'Company, hotel and flight configuration and flight rules of the airline (spec 4.3); hotel and flight configs are versioned.',
  'Hotel contracts':
    'Contracts and rates of configured hotels, and the enable/disable change requests the operator decides (DESIGN 4).',
  Schedules: 'Roster submission and its asynchronous processing: status, action items, audit events (spec 4.1).',
  Bookings:
    'Hotel and flight bookings: read, amend, cancel, retry, and explicit booking requests; live flight options (spec 4.4).',
  'Action items': 'Injection of action items for disruptions (IROPs) and ad-hoc needs (spec 4.2).',
  'Hotel directory': 'Search of the GDS hotel inventory (spec 4.5).',
  Coverage:
    'Who is arriving without a confirmed room or a ticketed deadhead: the latest processed roster against the bookings (not in the spec).',
  Reports:
    'Spend over a period per station, hotel or month: hotels and flights booked, late-cancellation fees paid and avoided, invoice amounts disputed (not in the spec).',
  Invoices:
    'Hotel invoices checked line by line against the bookings: duplicates, stays never booked, fees after a timely cancellation, no-shows, incidentals and rates above the contract (not in the spec).',
  'Traveller profiles':
    'Crew members’ traveller profiles by employee_id (DESIGN 3): passport names, date of birth and travel documents, encrypted at rest and audited; a flight booking needs the date of birth.',
  'Operator API':
    'The service operator’s API (`/ops/v1`, operator token): airlines, levers, users, traveller profiles, change-request decisions (DESIGN 3).',
  Operations: 'Probes, metrics and this document; no authentication.',
  'Supplier callbacks':
    'Deliveries from suppliers about orders we hold (not for API clients): no bearer, each signed with the secret the supplier shares with us for that airline.',
  'Hotel confirmation':
    'The page a DIRECT hotel answers its rooming list on (HTML, not for API clients): reached from the e-mailed link, which is its only credential.',
  'Auth (OAuth 2.0)':
    'The auth service (its own host, AUTH_URL): client registration, client_credentials tokens, refresh, signing keys (spec 5).',
  Console:
    'The travel desk’s console (HTML for people, not for API clients): sign-in with each person’s own login, invitations, sessions in a cookie, authenticator apps.',
  'Console users':
    'The people of the airline’s travel desk who use the console (`/console`, HTML, each with a login of their own): invitations, revocation, and whether an authenticator app is required.',
  Webhooks:
    'Signed event pushes (not in the spec): endpoints, secrets, deliveries, and (under `webhooks`) the events the service POSTs, signed the Standard Webhooks way.',
};

/** The request headers of every webhook POST (Standard Webhooks). */
const WEBHOOK_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (equal to the body `id`); the same on every redelivery: deduplicate on it.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'Unix seconds when this attempt was signed. Reject a timestamp more than 5 minutes from your clock (replay tolerance).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the endpoint secret after `whsec_`. ' +
      'Two signatures while a rotated secret’s grace period runs; accept the request when any one verifies.',
    schema: { type: 'string' },
  },
];

function webhookOperations(components: SchemaComponents): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/[^a-z]+/g, '_')}`,
          summary: `${type} event`,
          description: `${schema.description ?? ''} POSTed to every enabled endpoint subscribed to \`${type}\`, signed (see the headers), in event order per endpoint.`,
          tags: ['Webhooks'],
          // Authenticated by its signature headers, not by a security scheme.
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: components.use(schema) } } },
          responses: {
            '200': { description: 'Received (any 2xx within 10 s counts as delivered)' },
            '400': {
              description:
                'Refused: any answer other than 2xx (a redirect too) or none within 10 s is a failure, retried with exponential backoff over more than 24 hours',
            },
          },
        },
      },
    ]),
  );
}

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
/** Keywords whose values are data, not sub-schemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example', 'required']);

/**
 * Turns TypeBox schemas into JSON (TypeBox's markers are symbols and drop out) and moves every sub-schema
 * that carries a `title` into components.schemas, referenced by `$ref`. Two different schemas with one
 * title stay inline rather than overwrite each other.
 */
class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly canonical = new Map<string, string>();

  use(schema: TSchema): Json {
    return this.walk(JSON.parse(JSON.stringify(schema))) as Json;
  }

  private walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.walk(n));
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = DATA_KEYWORDS.has(k) ? v : this.walk(v);
    const title = out.title;
    if (typeof title === 'string' && COMPONENT_NAME.test(title)) {
      const json = JSON.stringify(out);
      const known = this.canonical.get(title);
      if (known === undefined) {
        this.canonical.set(title, json);
        this.schemas[title] = out;
      }
      if (known === undefined || known === json) return { $ref: `#/components/schemas/${title}` };
    }
    return out;
  }
}

function objectProperties(schema: Json): { name: string; schema: Json; required: boolean }[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}

function parameters(route: DocumentedRoute, fullPath: string, components: SchemaComponents): Json[] {
  const out: Json[] = [];
  const pathParams = new Set([...fullPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string));
  const declared = route.params ? objectProperties(components.use(route.params)) : [];
  for (const name of pathParams) {
    const p = declared.find((d) => d.name === name);
    const { description, ...schema } = p?.schema ?? { type: 'string' };
    out.push({ name, in: 'path', required: true, schema, ...(description ? { description } : {}) });
  }
  if (route.query) {
    for (const p of objectProperties(components.use(route.query))) {
      const { description, ...schema } = p.schema;
      out.push({ name: p.name, in: 'query', required: p.required, schema, ...(description ? { description } : {}) });
    }
  }
  for (const [name, h] of Object.entries(route.headers ?? {})) {
    out.push({
      name,
      in: 'header',
      required: h.required ?? false,
      description: h.description,
      schema: { type: 'string' },
    });
  }
  return out;
}

/** Airline routes share the airline's rate limit (docs/decisions.md): each may answer 429. */
const isAirlineRoute = (auth: string) => (SCOPES as readonly string[]).includes(auth);
const tooManyRequests = (components: SchemaComponents): Json => ({
  429: {
    description:
      "RATE_LIMITED: the airline's requests of the last minute exceed RATE_LIMIT_PER_MINUTE; retry after Retry-After seconds",
    headers: {
      'Retry-After': { schema: { type: 'integer' } },
      RateLimit: { schema: { type: 'string' } },
      'RateLimit-Policy': { schema: { type: 'string' } },
    },
    content: { 'application/json': { schema: components.use(ErrorEnvelope) } },
  },
});

function responses(route: DocumentedRoute, components: SchemaComponents): Json {
  const out: Json = {};
  for (const [status, r] of Object.entries(route.responses)) {
    const contentType = r.contentType ?? 'application/json';
    const schema = r.schema
      ? components.use(r.schema)
      : contentType === 'application/json'
        ? undefined
        : { type: 'string' };
    out[status] = { description: r.description, ...(schema ? { content: { [contentType]: { schema } } } : {}) };
  }
  return out;
}

/** The OpenAPI 3.1 document of the given route groups, generated from their declarations. */
export function buildOpenApi(input: OpenApiInput): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const group of input.groups) {
    for (const route of group.routes) {
      const path = openApiPath(group.prefix + route.path);
      const item = (paths[path] ??= group.server ? { servers: [group.server] } : {});
      for (const t of route.tags) if (!tags.includes(t)) tags.push(t);
      const params = parameters(route, path, components);
      item[route.method] = {
        operationId: route.operationId,
        summary: route.summary,
        ...((route.description ?? OPERATION_DESCRIPTIONS[route.operationId])
          ? { description: route.description ?? OPERATION_DESCRIPTIONS[route.operationId] }
          : {}),
        tags: route.tags,
        security: security(route.auth),
        ...(params.length ? { parameters: params } : {}),
        ...(route.body
          ? {
              requestBody: {
                required: !route.bodyOptional,
                content: {
                  'application/json': { schema: components.use(route.body) },
                  ...(route.csvBody ? { 'text/csv': { schema: { type: 'string', description: route.csvBody } } } : {}),
                },
              },
            }
          : {}),
        responses: {
          ...responses(route, components),
          ...(isAirlineRoute(route.auth) ? tooManyRequests(components) : {}),
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Crew Travel Booking Service',
      version: input.version ?? API_DOCUMENT_VERSION,
      description:
        'Airline API (`/api/v1`), operator API (`/ops/v1`), the auth service (OAuth 2.0, on its own host) and the operational endpoints. ' +
        'Generated from the route declarations; every error uses the ErrorEnvelope schema.\n\n' +
        'Flow: get a token (POST /oauth/token), submit the roster (POST /api/v1/crew/schedules, 202), poll its processing-status until `poll_recommended` is false, ' +
        'then read its action items and bookings. Processing and supplier calls are asynchronous; instead of polling, register a webhook endpoint (/api/v1/crew/webhooks) for the signed events under `webhooks`.\n\n' +
        'Enumerations are closed except `classification`, an open set (spec 2.4): new values may appear within v1 and clients must accept unknown ones.',
      contact: { name: 'Crew Travel Booking Service operator (contact details are given at onboarding)' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This api' }],
    // A tag without a description is left bare: the linters (operability test) then name it.
    tags: tags.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    webhooks: webhookOperations(components),
    components: { schemas: components.schemas, securitySchemes: securitySchemes(input.authUrl) },
  };
}
