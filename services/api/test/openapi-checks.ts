/**
 * What the served OpenAPI document is checked against (openapi-document.test.ts): the OpenAPI 3.1 subset it uses,
 * and the routes the apps register.
 */
import type { Express } from 'express';
import type { OpenApiDocument } from '../src/operability';
import { stack } from './operability-stack';

/** express 5 (router 2): route layers carry `route`, routers carry `handle.stack`, mounts keep `rawPath`. */
export interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string | string[];
  slash?: boolean;
  name: string;
}

/** Every `METHOD /path` an express app registers, and the paths of mounted sub-apps it cannot see into. */
export function registeredRoutes(app: Express): { routes: Set<string>; mounts: Set<string> } {
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

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function documentedOperations(
  d: OpenApiDocument,
  filter: (item: Record<string, unknown>) => boolean,
): Set<string> {
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(d.paths)) {
    if (!filter(item)) continue;
    for (const m of HTTP_METHODS) if (item[m]) ops.add(`${m.toUpperCase()} ${path}`);
  }
  return ops;
}

export const onAuthHost = (item: Record<string, unknown>) =>
  Array.isArray(item.servers) && (item.servers as { url: string }[]).some((s) => s.url === stack.authUrl);

/**
 * A hand-checked subset of the OpenAPI 3.1 schema (spec.openapis.org/oas/3.1): the objects this document
 * uses, with their required fields and allowed keys; stricter than the spec where we never need the
 * freedom. Schema Objects themselves are checked against JSON Schema 2020-12 separately.
 */
export function oas31Subset() {
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

export function resolvePointer(d: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      d,
    );
}

export function collect(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => collect(n, key, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      collect(v, key, out);
    }
  }
  return out;
}

export type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  requestBody?: unknown;
};

export function operations(d: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(d.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => [path, m, item[m] as Operation] as [string, string, Operation]),
  );
}
