import Ajv, { _, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { FORMATS } from './formats';

/** One `{field, issue}` entry of the error envelope's `details`. */
export interface ValidationIssue {
  field: string;
  issue: string;
}

function build(coerceTypes: boolean | 'array'): Ajv {
  // strictNumbers: a JSON number too big for a double (1e400) parses as Infinity, which is no number of any schema.
  const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true, coerceTypes, useDefaults: false });
  addFormats(ajv, { mode: 'full' });
  // Ours replace ajv-formats' date, date-time and uuid (formats.ts: values Postgres and V8 take).
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  // A `<timestamp>` of the spec always carries an offset or Z; ajv-formats' date-time already requires it.
  ajv.addFormat('hh-mm', /^([01]\d|2[0-3]):[0-5]\d$/);
  ajv.addKeyword({
    keyword: STORABLE,
    type: 'string',
    schemaType: 'boolean',
    error: { message: UNSTORABLE_ISSUE },
    // Inlined into the generated validator: a big roster has about two million strings.
    code: (cxt) => cxt.fail(_`${cxt.data}.indexOf(${'\u0000'}) !== -1 || !${cxt.data}.isWellFormed()`),
  });
  return ajv;
}

/*
 * The storable-string rule: every string the schema layer accepts can be stored by Postgres (text and
 * jsonb), so no write fails on it later. Postgres refuses NUL (U+0000) and UTF-16 surrogates without their
 * pair, both of which JSON (`\u0000`, `\ud800`) and percent-encoding (`%00`) can carry. The rule is one ajv
 * keyword that `storable()` adds to every string schema of a body, query or path before it is compiled.
 */
const STORABLE = 'storable';

/** The storable-string rule for a string checked outside a schema (a form field, a COPY value). */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}
const UNSTORABLE_ISSUE = 'must not contain NUL (\\u0000) or an unpaired UTF-16 surrogate';
/** Formats whose valid values are all printable ASCII: passing them already makes a string storable. */
const ASCII_FORMATS = new Set(['date', 'date-time', 'email', 'hh-mm', 'uuid']);

/** Keywords whose value is data, not a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A copy of `schema` with the storable keyword on every string schema (and on open objects' property names). */
function storable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(storable);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (DATA_KEYWORDS.has(k)) copy[k] = v;
    else if (SCHEMA_MAPS.has(k) && v && typeof v === 'object')
      copy[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, storable(sub)]));
    else copy[k] = storable(v);
  }
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  const closed = copy.enum !== undefined || copy.const !== undefined || ASCII_FORMATS.has(copy.format as string);
  if (types.includes('string') && !closed) copy[STORABLE] = true;
  // Keys of a free-form object end up in jsonb too.
  if (types.includes('object') && (copy.additionalProperties !== false || copy.patternProperties)) {
    copy.propertyNames = { ...(copy.propertyNames ?? {}), type: 'string', [STORABLE]: true };
  }
  return copy;
}

/** The shared ajv for bodies (no coercion) and for query strings (strings coerced to the schema's types). */
const bodyAjv = build(false);
const queryAjv = build('array');

const cache = new WeakMap<object, ValidateFunction>();
const queryCache = new WeakMap<object, ValidateFunction>();

function compiled(ajv: Ajv, store: WeakMap<object, ValidateFunction>, schema: TSchema): ValidateFunction {
  let fn = store.get(schema);
  if (!fn) {
    fn = ajv.compile(storable(schema) as TSchema);
    store.set(schema, fn);
  }
  return fn;
}

/** Turns ajv errors into the envelope's `details`, with a JSON-pointer-like `field`. */
export function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  if (!errors) return [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    let field = e.instancePath || '/';
    let issue = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      field = `${e.instancePath}/${extra}`;
      issue = 'is not an allowed property';
    } else if (e.keyword === 'required') {
      field = `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`;
      issue = 'is required';
    } else if (e.keyword === 'enum') {
      issue = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (e.keyword === 'format') {
      issue = `must be a valid ${(e.params as { format: string }).format}`;
    }
    const key = `${field}\u0000${issue}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push({ field, issue });
    }
  }
  return issues;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Validates a JSON body against a TypeBox schema. */
export function checkBody<S extends TSchema>(schema: S, data: unknown): Checked<Static<S>> {
  const fn = compiled(bodyAjv, cache, schema);
  return fn(data) ? { ok: true, value: data as Static<S> } : { ok: false, issues: toIssues(fn.errors) };
}

/** Validates (and coerces in place) a query-string object against a TypeBox schema. */
export function checkQuery<S extends TSchema>(schema: S, data: Record<string, unknown>): Checked<Static<S>> {
  const copy = { ...data };
  const fn = compiled(queryAjv, queryCache, schema);
  if (!fn(copy)) return { ok: false, issues: toIssues(fn.errors) };
  // ajv coerces '1e400' to Infinity and then skips minimum/maximum (it checks them on finite numbers only).
  // A query or path is flat: its coerced numbers are its top-level values (or the items of an array).
  const infinite = Object.keys(copy).filter((k) =>
    [copy[k]].flat().some((v) => typeof v === 'number' && !Number.isFinite(v)),
  );
  if (infinite.length)
    return { ok: false, issues: infinite.map((k) => ({ field: `/${k}`, issue: 'must be a finite number' })) };
  return { ok: true, value: copy };
}
