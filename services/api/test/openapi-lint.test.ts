import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLASSIFICATIONS } from '@crew/contracts';
import { OPERATION_DESCRIPTIONS } from '../src/operability/descriptions';
import type { OpenApiDocument } from '../src/operability';
import { http, type Stack, startStack } from '@crew/test-support';

/*
 * The served document explains itself. Spectral (spectral:oas, .spectral.yaml) and Redocly
 * (recommended, redocly.yaml) report nothing on it; both run offline from the pinned dev dependencies.
 */

const REPO = path.resolve(__dirname, '../../..');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

let stack: Stack;
let doc: OpenApiDocument;
let dir: string;
let file: string;

beforeAll(async () => {
  stack = await startStack('openapi-lint');
  const res = await http<OpenApiDocument>(`${stack.apiUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = res.body;
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  file = path.join(dir, 'openapi.json');
  writeFileSync(file, res.text);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

/** A dev dependency's CLI, run with node from the repository root (where .spectral.yaml and redocly.yaml are). */
function cli(pkgBin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [require.resolve(pkgBin), ...args],
      { cwd: REPO, env, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

type Operation = {
  operationId: string;
  description?: string;
  security: unknown[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
const operations = (d: OpenApiDocument): [string, string, Operation][] =>
  Object.entries(d.paths).flatMap(([p, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => [p, m, item[m] as Operation] as [string, string, Operation]),
  );

describe('lint of GET /openapi.json', () => {
  it('Spectral (spectral:oas): no result at any severity', async () => {
    const out = await cli('@stoplight/spectral-cli/dist/index.js', [
      'lint',
      file,
      '--ruleset',
      path.join(REPO, '.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ]);
    const results = JSON.parse(out.stdout || '[]') as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    expect(results.map((r) => `${r.code} (severity ${r.severity}) ${r.path.join('.')}: ${r.message}`)).toEqual([]);
    expect(out.code).toBe(0);
  });

  it('Redocly (recommended): 0 errors, 0 warnings', async () => {
    const out = await cli('@redocly/cli/bin/cli.js', [
      'lint',
      file,
      '--config',
      path.join(REPO, 'redocly.yaml'),
      '--format',
      'json',
    ]);
    const report = JSON.parse(out.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    expect(
      report.problems.map((p) => `${p.ruleId} ${p.location.map((l) => l.pointer).join(' ')}: ${p.message}`),
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(out.code).toBe(0);
  });
});

describe('the document explains itself', () => {
  it('info.version is 1.0.0 (spec 9)', () => {
    expect(doc.info.version).toBe('1.0.0');
  });

  it('every operation has a description; the description table names only operations that exist, each once', () => {
    const ops = operations(doc);
    for (const [p, m, op] of ops) expect([m, p, (op.description ?? '').length > 40]).toEqual([m, p, true]);
    const ids = new Set(ops.map(([, , op]) => op.operationId));
    expect(Object.keys(OPERATION_DESCRIPTIONS).filter((id) => !ids.has(id))).toEqual([]);
    // A route that declares its own description is not described twice.
    const own = ops
      .filter(([, , op]) => op.description !== OPERATION_DESCRIPTIONS[op.operationId])
      .map(([, , op]) => op.operationId);
    expect(own.filter((id) => id in OPERATION_DESCRIPTIONS)).toEqual([]);
  });

  it('carries the behaviour rules of the spec in the operations it names', () => {
    const describe = (id: string) => operations(doc).find(([, , op]) => op.operationId === id)![2].description!;
    expect(describe('listBookings')).toMatch(/At least one filter is required, else 400 `INVALID_REQUEST`/);
    expect(describe('requestBooking')).toMatch(/409 `CONFLICT` when a live booking of the same type already exists/);
    expect(describe('requestBooking')).toMatch(/Idempotency-Key/);
    expect(describe('injectActionItem')).toMatch(/Idempotency-Key/);
    expect(describe('putHotelConfig')).toMatch(/409 `CONFLICT`/);
    expect(describe('retryBooking')).toMatch(/409 `CONFLICT` when the booking is not FAILED/);
    expect(describe('getProcessingStatus')).toMatch(/poll_recommended/);
    expect(describe('searchHotels')).toMatch(/At least one of/);
  });

  it('documents a 4xx answer on every operation that takes a credential or an input (redocly.yaml turns the rule off for the probes only)', () => {
    for (const [p, m, op] of operations(doc)) {
      if (op.security.length === 0 && !op.parameters?.length && !op.requestBody) continue;
      expect([m, p, Object.keys(op.responses).some((s) => /^4/.test(s))]).toEqual([m, p, true]);
    }
  });

  it('types the booking blocks and action item details; classification is an open set listing the known values', () => {
    const schemas = doc.components.schemas as Record<
      string,
      { properties: Record<string, unknown>; additionalProperties?: boolean; anyOf?: unknown[] }
    >;
    expect(schemas.Booking!.properties.hotel).toEqual({
      anyOf: [{ $ref: '#/components/schemas/BookingHotel' }, { type: 'null' }],
    });
    expect(schemas.Booking!.properties.flight).toEqual({
      anyOf: [{ $ref: '#/components/schemas/BookingFlight' }, { type: 'null' }],
    });
    expect(Object.keys(schemas.BookingFlight!.properties)).toEqual(
      expect.arrayContaining([
        'pnr',
        'ticket_id',
        'transaction_id',
        'trip_session_id',
        'airline_code',
        'flight_number',
        'dep_time',
        'arr_time',
        'cabin',
        'price',
      ]),
    );
    expect(Object.keys(schemas.BookingHotel!.properties)).toEqual(
      expect.arrayContaining(['check_in_date', 'check_out_date', 'property_id', 'confirmation_number', 'nightly_rate']),
    );
    expect(schemas.ActionItem!.properties.details).toEqual({ $ref: '#/components/schemas/ActionItemDetails' });
    for (const name of ['BookingHotel', 'BookingFlight', 'ActionItemDetails'])
      expect([name, schemas[name]!.additionalProperties]).toEqual([name, false]);
    expect(schemas.Classification!.anyOf).toEqual([{ type: 'string', enum: [...CLASSIFICATIONS] }, { type: 'string' }]);
    expect(schemas.ActionItem!.properties.classification).toEqual({ $ref: '#/components/schemas/Classification' });
    expect(schemas.AuditEvent!.properties.classification).toEqual({ $ref: '#/components/schemas/Classification' });
  });
});

describe('/docs "Authorize"', () => {
  it('the page may connect to the auth service (CSP connect-src), whose tokenUrl the oauth2 scheme names', async () => {
    const page = await http(`${stack.apiUrl}/docs`);
    expect(page.status).toBe(200);
    const connect = /connect-src ([^;]+)/.exec(page.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');
    expect(connect).toEqual(["'self'", new URL(stack.authUrl).origin]);
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      flows: { clientCredentials: { tokenUrl: `${stack.authUrl}/oauth/token` } },
    });
    // Elsewhere the api keeps helmet's default (no connect-src beyond default-src 'self').
    const other = await http(`${stack.apiUrl}/healthz`);
    expect(other.headers.get('content-security-policy')).not.toContain(new URL(stack.authUrl).origin);
  });
});
