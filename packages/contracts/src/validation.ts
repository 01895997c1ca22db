import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { FAST_FORMATS } from './formats';

/** One `{field, issue}` entry of the error envelope's `details`. */
export interface ValidationIssue {
  field: string;
  issue: string;
}

function build(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes, useDefaults: false });
  addFormats(ajv, { mode: 'full' });
  for (const [name, format] of Object.entries(FAST_FORMATS)) ajv.addFormat(name, format);
  // A `<timestamp>` of the spec always carries an offset or Z; ajv-formats' date-time already requires it.
  ajv.addFormat('hh-mm', /^([01]\d|2[0-3]):[0-5]\d$/);
  return ajv;
}

/** The shared ajv for bodies (no coercion) and for query strings (strings coerced to the schema's types). */
const bodyAjv = build(false);
const queryAjv = build('array');

const cache = new WeakMap<object, ValidateFunction>();
const queryCache = new WeakMap<object, ValidateFunction>();

function compiled(ajv: Ajv, store: WeakMap<object, ValidateFunction>, schema: TSchema): ValidateFunction {
  let fn = store.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
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
  return fn(copy) ? { ok: true, value: copy as Static<S> } : { ok: false, issues: toIssues(fn.errors) };
}
