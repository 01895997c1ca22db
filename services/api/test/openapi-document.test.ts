/** GET /openapi.json: a valid OpenAPI 3.1 document describing exactly the routes the api and auth serve. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { SCOPES } from '@crew/contracts';
import { createAuthApp, KeyStore, oauthRoutes } from '@crew/auth';
import { Keyring, openApiPath } from '@crew/platform';
import { API_BASE, apiRoutes, createApiApp, OPS_BASE } from '../src';
import { stack, doc, deps, useOperabilityStack } from './operability-stack';
import {
  registeredRoutes,
  documentedOperations,
  onAuthHost,
  oas31Subset,
  resolvePointer,
  collect,
  type Operation,
  operations,
} from './openapi-checks';

useOperabilityStack('openapi-document');

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
      keys: new KeyStore(deps.db, Keyring.parse(stack.config.supplierCredentialsKey)),
      logger: deps.logger,
      issuer: () => stack.authUrl,
    });
    const served = [...registeredRoutes(app).routes]
      // Its probes answer as the api's do, documented once under the api's paths.
      .filter((r) => r !== 'GET /healthz' && r !== 'GET /readyz')
      .map((r) => r.replace(/ (.*)$/, (_m, p: string) => ` ${openApiPath(p)}`));
    expect(served.sort()).toEqual([...documentedOperations(doc, onAuthHost)].sort());
  });

  it('describes each route from its declaration: tags, scope, parameters, bodies, responses, error envelope', () => {
    const specs = [
      ...apiRoutes(deps).crew.map((r) => ({ r, path: API_BASE + r.path })),
      ...apiRoutes(deps).ops.map((r) => ({ r, path: OPS_BASE + r.path })),
      ...oauthRoutes({
        db: deps.db,
        keys: new KeyStore(deps.db, Keyring.parse(stack.config.supplierCredentialsKey)),
        issuer: () => stack.authUrl,
      }).map((r) => ({
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
