/**
 * What fuzz-mutations.test.ts draws its requests from: values from a TypeBox schema, hostile values, path segments.
 * `known` holds real values by parameter or property name; the test fills it once its stack is up.
 */
import fc from 'fast-check';

export const TRAVELLER = 'ada@crew.test';

/** Real values by parameter / property name, so that a draw often reaches the handler's deepest branch. */
export const known: Record<string, unknown[]> = {};

// ---------------------------------------------------------------- hostile values

/** A value written into the JSON text as is (1e400, 2^63, deep nesting): JSON.stringify cannot say it. */
export const RAW = '\u0001raw:';
export const raw = (text: string) => RAW + text;
export const serialize = (body: unknown) => JSON.stringify(body).replace(/"\\u0001raw:([^"]*)"/g, '$1');

export const UNSTORABLE_CHARS = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d'];
export const hostileString = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...UNSTORABLE_CHARS), fc.string({ maxLength: 6 }))
    .map(([a, b, c]) => a + b + c),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(3000),
    '\u202e',
    '𝕏',
    '%00',
    '%',
    '..',
    "'; drop table airlines; --",
    '\\',
    '"',
    '0',
    '-1',
  ),
);
export const hugeNumber = fc.oneof(
  fc.constantFrom(
    raw('1e400'),
    raw('-1e400'),
    raw('1e-400'),
    raw('9223372036854775808'),
    raw('-9223372036854775809'),
    raw('99999999999999999999'),
    raw('-0'),
    raw('1E+2'),
  ),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 2 ** 63, 0.5, -1, 0, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((b) => raw(b.toString())),
);
export const deepNesting = fc.constantFrom(64, 1000, 20_000).map((n) => raw('['.repeat(n) + ']'.repeat(n)));
export const deepObject = fc.integer({ min: 10, max: 300 }).map((n) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
});
export const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { '': null }),
  fc.jsonValue({ maxDepth: 3 }),
);
export const hostile: fc.Arbitrary<unknown> = fc.oneof(hostileString, hugeNumber, wrongType, deepNesting, deepObject);

// ---------------------------------------------------------------- values drawn from a schema

export type Schema = Record<string, any>;
export const isoDate = fc.date({
  min: new Date('2026-01-01T00:00:00Z'),
  max: new Date('2028-12-31T00:00:00Z'),
  noInvalidDate: true,
});

export function stringOf(s: Schema, name: string): fc.Arbitrary<string> {
  const pool = (known[name] ?? []).filter((v): v is string => typeof v === 'string');
  let base: fc.Arbitrary<string>;
  if (s.format === 'date') base = isoDate.map((d) => d.toISOString().slice(0, 10));
  else if (s.format === 'date-time') base = isoDate.map((d) => d.toISOString());
  else if (s.format === 'email') base = fc.oneof(fc.constant(TRAVELLER), fc.emailAddress());
  else if (s.format === 'uuid') base = fc.uuid();
  else if (s.format === 'hh-mm')
    base = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  else if (s.pattern) base = fc.stringMatching(new RegExp(s.pattern));
  else base = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40), unit: 'grapheme' });
  return pool.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 2 }, { arbitrary: base, weight: 1 })
    : base;
}

export function numberOf(s: Schema, integer: boolean, name: string): fc.Arbitrary<number> {
  const pool = (known[name] ?? []).filter((v): v is number => typeof v === 'number');
  const min = Math.max(s.minimum ?? -1e6, -1e9);
  const max = Math.min(s.maximum ?? 1e6, 1e9);
  const base = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true });
  return pool.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 2 }, { arbitrary: base, weight: 1 })
    : base;
}

/**
 * Values of a schema; with `dirty`, any node may instead be hostile (about one in twelve), and objects may
 * carry extra properties.
 */
export function fromSchema(s: Schema, dirty: boolean, name = ''): fc.Arbitrary<unknown> {
  const typed = typedOf(s, dirty, name);
  return dirty ? fc.oneof({ arbitrary: typed, weight: 11 }, { arbitrary: hostile, weight: 1 }) : typed;
}

export function typedOf(s: Schema, dirty: boolean, name: string): fc.Arbitrary<unknown> {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a: Schema) => fromSchema(a, dirty, name)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringOf(s, name);
    case 'integer':
    case 'number':
      return numberOf(s, type === 'integer', name);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(s.items ?? {}, dirty, name), {
        minLength: Math.min(s.minItems ?? 0, 3),
        maxLength: Math.max(Math.min(s.maxItems ?? 3, 3), Math.min(s.minItems ?? 0, 3)),
      });
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      if (!Object.keys(props).length)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromSchema(v, dirty, k)]));
      const record = fc.record(model, { requiredKeys: s.required ?? [] });
      if (!dirty) return record;
      const extra = fc.option(
        fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), hostileString), hostile, { maxKeys: 2 }),
        { freq: 8, nil: undefined },
      );
      return fc.tuple(record, extra).map(([r, e]) => ({ ...r, ...e }));
    }
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

// ---------------------------------------------------------------- requests

export interface Draw {
  /** The route as declared (`POST /api/v1/crew/config/hotels/:hotel_config_id/contracts`). */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** What was sent, readable, for the report. */
  shown: string;
}

/** In u mode a surrogate pair is one code point: this matches only unpaired surrogates. */
export const LONE_SURROGATE = /\p{Surrogate}/gu;
/** Percent-encoded; an unpaired surrogate (which UTF-8 cannot carry) becomes the bytes it would have had, undecodable. */
export const encode = (s: string) =>
  encodeURIComponent(s.replace(LONE_SURROGATE, '\ufffd')).replace(/%EF%BF%BD/g, '%ED%A0%80');
export const encodeSegment = (v: unknown) =>
  typeof v === 'string' && v.startsWith(RAW) ? v.slice(RAW.length) : encode(String(v));
export const segment = fc.oneof(
  hostileString.map(encode),
  fc.constantFrom(
    '9223372036854775808',
    '99999999999999999999',
    '1e400',
    '1e308',
    '-1',
    '0',
    '1.5',
    '%',
    '%E0%A4%A',
    '%00',
    '%ED%A0%80',
    '%zz',
    'null',
  ),
  fc.uuid(),
  fc.integer().map(String),
);
