import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { Express } from 'express';
import { SCOPES } from '@crew/contracts';
import { createAuthApp, KeyStore, oauthRoutes } from '@crew/auth';
import { openApiPath } from '@crew/platform';
import { QUEUE_NAMES } from '@crew/queue';
import { parsePrometheusText, sampleValue } from '@crew/worker/src/operability/prom-text';
import { API_BASE, apiRoutes, createApiApp, OPS_BASE, type ApiDeps } from '../src';
import type { OpenApiDocument } from '../src/operability';
import { apiDepsOf, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let tenant: Tenant;
let doc: OpenApiDocument;
let deps: ApiDeps;

beforeAll(async () => {
  stack = await startStack('operability');
  tenant = await onboard(stack);
  deps = apiDepsOf(stack);
  const res = await http<OpenApiDocument>(`${stack.apiUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => stack.close());

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}

/** express 5 (router 2): route layers carry `route`, routers carry `handle.stack`, mounts keep `rawPath`. */
interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string | string[];
  slash?: boolean;
  name: string;
}

/** Every `METHOD /path` an express app registers, and the paths of mounted sub-apps it cannot see into. */
function registeredRoutes(app: Express): { routes: Set<string>; mounts: Set<string> } {
  const routes = new Set<string>();
  const mounts = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const base = layer.slash || layer.rawPath === undefined ? '' : String(layer.rawPath);
      if (layer.route) {
        for (const p of [layer.route.path].flat())
          for (const m of Object.keys(layer.route.methods)) routes.add(`${m.toUpperCase()} ${prefix}${p}`);
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, prefix + base);
      } else if (base) {
        mounts.add(prefix + base);
      }
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  return { routes, mounts };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function documentedOperations(d: OpenApiDocument, filter: (item: Record<string, unknown>) => boolean): Set<string> {
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(d.paths)) {
    if (!filter(item)) continue;
    for (const m of HTTP_METHODS) if (item[m]) ops.add(`${m.toUpperCase()} ${path}`);
  }
  return ops;
}

const onAuthHost = (item: Record<string, unknown>) =>
  Array.isArray(item.servers) && (item.servers as { url: string }[]).some((s) => s.url === stack.authUrl);

/**
 * A hand-checked subset of the OpenAPI 3.1 schema (spec.openapis.org/oas/3.1): the objects this document
 * uses, with their required fields and allowed keys; stricter than the spec where we never need the
 * freedom. Schema Objects themselves are checked against JSON Schema 2020-12 separately.
 */
function oas31Subset() {
  const ext = { '^x-': {} };
  const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
    type: 'object',
    properties,
    required,
    patternProperties: ext,
    additionalProperties: false,
  });
  const str = { type: 'string' };
  const schemaObject = { type: ['object', 'boolean'] };
  const ref = {
    type: 'object',
    required: ['$ref'],
    properties: { $ref: { type: 'string', pattern: '^#/components/' } },
  };
  const server = strict({ url: str, description: str, variables: { type: 'object' } }, ['url']);
  const mediaType = strict({
    schema: schemaObject,
    example: {},
    examples: { type: 'object' },
    encoding: { type: 'object' },
  });
  const content = {
    type: 'object',
    propertyNames: { pattern: '^[a-z]+/[a-z0-9.+*-]+' },
    additionalProperties: mediaType,
  };
  const parameter = {
    ...strict(
      {
        name: { type: 'string', minLength: 1 },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        description: str,
        required: { type: 'boolean' },
        deprecated: { type: 'boolean' },
        schema: schemaObject,
        content,
        style: str,
        explode: { type: 'boolean' },
        example: {},
      },
      ['name', 'in'],
    ),
    oneOf: [{ required: ['schema'] }, { required: ['content'] }],
    if: { properties: { in: { const: 'path' } } },
    then: { required: ['required'], properties: { required: { const: true } } },
  };
  const response = strict({ description: str, headers: { type: 'object' }, content, links: { type: 'object' } }, [
    'description',
  ]);
  const securityRequirement = { type: 'object', additionalProperties: { type: 'array', items: str } };
  const operation = strict({
    tags: { type: 'array', items: str },
    summary: str,
    description: str,
    operationId: str,
    parameters: { type: 'array', items: { oneOf: [ref, parameter] } },
    requestBody: {
      oneOf: [
        ref,
        strict({ description: str, content: { ...content, minProperties: 1 }, required: { type: 'boolean' } }, [
          'content',
        ]),
      ],
    },
    responses: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^([1-5](\\d\\d|XX)|default)$' },
      additionalProperties: { oneOf: [ref, response] },
    },
    deprecated: { type: 'boolean' },
    security: { type: 'array', items: securityRequirement },
    servers: { type: 'array', items: server },
  });
  const pathItem = strict({
    summary: str,
    description: str,
    servers: { type: 'array', items: server },
    parameters: { type: 'array' },
    ...Object.fromEntries(HTTP_METHODS.map((m) => [m, operation])),
  });
  const flow = (required: string[]) =>
    strict(
      {
        authorizationUrl: str,
        tokenUrl: { type: 'string', pattern: '^https?://' },
        refreshUrl: { type: 'string', pattern: '^https?://' },
        scopes: { type: 'object', additionalProperties: str },
      },
      required,
    );
  const securityScheme = {
    ...strict(
      {
        type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] },
        description: str,
        name: str,
        in: { enum: ['query', 'header', 'cookie'] },
        scheme: str,
        bearerFormat: str,
        flows: strict({
          implicit: flow(['authorizationUrl', 'scopes']),
          password: flow(['tokenUrl', 'scopes']),
          clientCredentials: flow(['tokenUrl', 'scopes']),
          authorizationCode: flow(['authorizationUrl', 'tokenUrl', 'scopes']),
        }),
        openIdConnectUrl: str,
      },
      ['type'],
    ),
    allOf: [
      { if: { properties: { type: { const: 'http' } } }, then: { required: ['scheme'] } },
      { if: { properties: { type: { const: 'oauth2' } } }, then: { required: ['flows'] } },
      { if: { properties: { type: { const: 'apiKey' } } }, then: { required: ['name', 'in'] } },
    ],
  };
  return {
    ...strict(
      {
        openapi: { type: 'string', pattern: '^3\\.1\\.\\d+(-.+)?$' },
        info: strict(
          {
            title: str,
            summary: str,
            description: str,
            termsOfService: str,
            contact: { type: 'object' },
            license: { type: 'object' },
            version: str,
          },
          ['title', 'version'],
        ),
        jsonSchemaDialect: str,
        servers: { type: 'array', items: server },
        paths: { type: 'object', propertyNames: { pattern: '^/' }, additionalProperties: pathItem },
        webhooks: { type: 'object' },
        components: strict({
          schemas: {
            type: 'object',
            propertyNames: { pattern: '^[a-zA-Z0-9._-]+$' },
            additionalProperties: schemaObject,
          },
          securitySchemes: { type: 'object', additionalProperties: securityScheme },
        }),
        security: { type: 'array', items: securityRequirement },
        tags: { type: 'array', items: strict({ name: str, description: str }, ['name']) },
        externalDocs: { type: 'object' },
      },
      ['openapi', 'info'],
    ),
    anyOf: [{ required: ['paths'] }, { required: ['components'] }, { required: ['webhooks'] }],
  };
}

function resolvePointer(d: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      d,
    );
}

function collect(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => collect(n, key, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      collect(v, key, out);
    }
  }
  return out;
}

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  requestBody?: unknown;
};

function operations(d: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(d.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => [path, m, item[m] as Operation] as [string, string, Operation]),
  );
}

describe('GET /openapi.json', () => {
  it('validates as OpenAPI 3.1 (structure, JSON Schema 2020-12 schemas, references, path parameters, security)', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    const validate = ajv.compile(oas31Subset());
    const valid = validate(doc);
    expect(valid ? [] : validate.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');

    // Every schema object is a valid JSON Schema 2020-12 (the OAS 3.1 default dialect).
    const schemaAjv = new Ajv2020({ strict: false });
    const schemas = [...Object.values(doc.components.schemas), ...collect(doc.paths, 'schema')];
    for (const s of schemas) expect(schemaAjv.validateSchema(s as object) ? [] : schemaAjv.errors).toEqual([]);

    for (const ref of collect(doc, '$ref') as string[])
      expect([ref, resolvePointer(doc, ref) !== undefined]).toEqual([ref, true]);

    const ids = operations(doc).map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, method, op] of operations(doc)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect([method, path, declared]).toEqual([method, path, templated]);
      const keys = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const requirement of op.security) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          const def = doc.components.securitySchemes[scheme] as
            { type: string; flows?: { clientCredentials: { scopes: Record<string, string> } } } | undefined;
          expect([scheme, def !== undefined]).toEqual([scheme, true]);
          if (def?.type === 'oauth2')
            for (const s of scopes) expect(Object.keys(def.flows!.clientCredentials.scopes)).toContain(s);
          else expect(scopes).toEqual([]);
        }
      }
    }
  });

  it('validates against the official OpenAPI 3.1 schema (@seriousme/openapi-schema-validator, run as its CLI: the package is ESM-only)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
      const out = await new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [cli, file], (err, stdout) =>
          resolve({ code: err ? Number(err.code ?? 1) : 0, stdout }),
        ),
      );
      expect(JSON.parse(out.stdout)).toEqual({ valid: true });
      expect(out.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents every route the api registers and nothing else (the UI mounts aside)', () => {
    const app = createApiApp(deps);
    const { routes, mounts } = registeredRoutes(app);
    const served = new Set(
      [...routes]
        .filter((r) => !/^GET \/docs(\/|$)/.test(r))
        .map((r) => r.replace(/ (.*)$/, (_m, p: string) => ` ${openApiPath(p)}`)),
    );
    expect([...served].sort()).toEqual([...documentedOperations(doc, (item) => !onAuthHost(item))].sort());
    // The sub-apps the walk cannot see into are exactly the two UIs'.
    expect([...mounts].sort()).toEqual(['/admin/queues']);
    expect([...routes]).toContain('GET /docs');
  });

  it('documents every route the auth service registers, on the auth host', () => {
    const app = createAuthApp({
      db: deps.db,
      keys: new KeyStore(deps.db),
      logger: deps.logger,
      issuer: () => stack.authUrl,
    });
    const served = [...registeredRoutes(app).routes]
      .filter((r) => r !== 'GET /healthz')
      .map((r) => r.replace(/ (.*)$/, (_m, p: string) => ` ${openApiPath(p)}`));
    expect(served.sort()).toEqual([...documentedOperations(doc, onAuthHost)].sort());
  });

  it('describes each route from its declaration: tags, scope, parameters, bodies, responses, error envelope', () => {
    const specs = [
      ...apiRoutes(deps).crew.map((r) => ({ r, path: API_BASE + r.path })),
      ...apiRoutes(deps).ops.map((r) => ({ r, path: OPS_BASE + r.path })),
      ...oauthRoutes({ db: deps.db, keys: new KeyStore(deps.db), issuer: () => stack.authUrl }).map((r) => ({
        r,
        path: r.path,
      })),
    ];
    expect(specs.length).toBeGreaterThan(20);
    for (const { r, path } of specs) {
      const op = doc.paths[openApiPath(path)]?.[r.method] as
        (Operation & { tags: string[]; requestBody?: { content: Record<string, unknown> } }) | undefined;
      expect([r.operationId, op?.operationId]).toEqual([r.operationId, r.operationId]);
      expect(op!.tags).toEqual(r.tags);
      const expected =
        r.auth === 'ops'
          ? [{ operatorToken: [] }]
          : r.auth === 'none'
            ? []
            : r.auth === 'user'
              ? [{ userCredential: [] }]
              : r.auth === 'client'
                ? [{ clientBasic: [] }]
                : [{ oauth2: [r.auth] }, { accessToken: [] }];
      expect([r.operationId, op!.security]).toEqual([r.operationId, expected]);
      // Airline routes (an OAuth scope) may also answer 429 from the airline's rate limit.
      const airline = !['ops', 'none', 'user', 'client'].includes(r.auth);
      expect(Object.keys(op!.responses).sort()).toEqual(
        [...Object.keys(r.responses), ...(airline ? ['429'] : [])].sort(),
      );
      expect(op!.requestBody !== undefined).toBe(r.body !== undefined);
      for (const [status, res] of Object.entries(op!.responses)) {
        if (Number(status) >= 400)
          expect([r.operationId, status, res.content?.['application/json']?.schema]).toEqual([
            r.operationId,
            status,
            { $ref: '#/components/schemas/ErrorEnvelope' },
          ]);
      }
      const queryNames = Object.keys((r.query as { properties?: object } | undefined)?.properties ?? {});
      expect((op!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)).toEqual(queryNames);
    }
    expect(doc.components.schemas.ErrorEnvelope).toMatchObject({ type: 'object', required: ['error', 'status'] });
    const csv = doc.paths['/api/v1/crew/schedules/{schedule_id}/actions.csv']?.get as Operation | undefined;
    expect(Object.keys(csv?.responses['200']?.content ?? {})).toEqual(['text/csv']);
    const submit = doc.paths['/api/v1/crew/schedules']?.post as {
      requestBody: { content: Record<string, { schema: unknown }> };
    };
    expect(submit.requestBody.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ScheduleSubmission',
    });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        clientCredentials: {
          tokenUrl: `${stack.authUrl}/oauth/token`,
          scopes: Object.fromEntries(SCOPES.map((s) => [s, expect.any(String)])),
        },
      },
    });
    expect(doc.components.securitySchemes.operatorToken).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(doc.tags.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Operator API', 'Auth (OAuth 2.0)', 'Operations']),
    );
  });
});

describe('/docs', () => {
  it('serves Swagger UI from local assets with an init script file (helmet CSP: no inline script)', async () => {
    const page = await http(`${stack.apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body!.trim()).toBe('');
      expect(attrs).toMatch(/src="\/docs\//);
    }
    expect(page.text).not.toMatch(/https?:\/\//);
    const init = await http(`${stack.apiUrl}/docs/init.js`);
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(init.text).toContain('"/openapi.json"');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const res = await fetch(`${stack.apiUrl}/docs/${asset}`);
      expect([asset, res.status]).toEqual([asset, 200]);
      await res.arrayBuffer();
    }
    expect((await http(`${stack.apiUrl}/docs/index.html`)).status).toBe(404);
  });
});

describe('/admin/queues', () => {
  const queuesApi = () => `${stack.apiUrl}/admin/queues/api/queues`;

  it('answers 401 with a Basic challenge, in the envelope, without the operator token or with a wrong one', async () => {
    for (const authorization of [
      undefined,
      basic('ops', 'wrong-token-wrong-token'),
      basic('ops', '%zz'),
      `Bearer ${tenant.accessToken}`,
      'Basic %%%',
    ]) {
      for (const url of [`${stack.apiUrl}/admin/queues`, queuesApi()]) {
        const res = await http(url, { headers: authorization ? { authorization } : {} });
        expectEnvelope(res, 401, 'UNAUTHORIZED');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
      }
    }
  });

  it('lists every BullMQ queue of the api prefix with the token as Basic password or Bearer', async () => {
    for (const authorization of [basic('anyone', stack.opsToken), `Bearer ${stack.opsToken}`]) {
      const res = await http(`${queuesApi()}?activeQueue=&status=latest&page=1`, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.body.queues.map((q: { name: string }) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
      for (const q of res.body.queues) expect(q).toMatchObject({ readOnlyMode: false, allowRetries: true });
    }
    const ui = await http(`${stack.apiUrl}/admin/queues`, { headers: { authorization: basic('ops', stack.opsToken) } });
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('<base href="/admin/queues/"');
  });

  it('is read-only except for retrying failed jobs', async () => {
    const authorization = basic('ops', stack.opsToken);
    for (const [method, path] of [
      ['PUT', '/schedules/pause'],
      ['PUT', '/schedules/empty'],
      ['PUT', '/schedules/clean/completed'],
      ['POST', '/schedules/add'],
      ['PUT', '/bookings/some-job/clean'],
    ] as const) {
      const res = await http(`${queuesApi()}${path}`, { method, headers: { authorization } });
      expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    }
    const retry = await http(`${queuesApi()}/schedules/retry/failed`, { method: 'PUT', headers: { authorization } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ retried: 0 });
    expect(await stack.queues.schedules.isPaused()).toBe(false);
  });
});

describe('GET /metrics (api)', () => {
  it('exposes process metrics, request durations by route template and status, and queue depths', async () => {
    const scrape = async () => {
      const res = await http(`${stack.apiUrl}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return { text: res.text, m: parsePrometheusText(res.text) };
    };
    const before = await scrape();
    await http(`${stack.apiUrl}/api/v1/crew/config/company`, { token: tenant.accessToken });
    await http(`${stack.apiUrl}/api/v1/crew/schedules/not-a-uuid`, { token: tenant.accessToken });
    await http(`${stack.apiUrl}/api/v1/crew/config/company`);
    await http(`${stack.apiUrl}/no/such/path/123`);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      (sampleValue(after.m, 'crew_http_request_duration_seconds_count', labels) ?? 0) -
      (sampleValue(before.m, 'crew_http_request_duration_seconds_count', labels) ?? 0);
    expect(delta({ method: 'GET', route: '/api/v1/crew/config/company', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/api/v1/crew/config/company', status: '401' })).toBe(1);
    expect(delta({ method: 'GET', route: '/api/v1/crew/schedules/:schedule_id', status: '403' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    expect(
      sampleValue(after.m, 'crew_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/ops/v1/airlines',
        status: '201',
      }),
    ).toBe(1);
    // Concrete ids never become label values.
    expect(after.text).not.toContain('not-a-uuid');
    expect(after.m.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(after.m.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(after.m.get('crew_http_request_duration_seconds')?.type).toBe('histogram');
    for (const queue of QUEUE_NAMES)
      expect(sampleValue(after.m, 'crew_queue_jobs', { queue, state: 'waiting', service: 'api' })).toBe(0);
  });
});
