import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** `<airport>`: a 3-letter IATA airport code. */
export const Airport = Type.String({ pattern: '^[A-Z]{3}$', description: '3-letter IATA airport code' });
/** `<carrier>`: a 2-letter IATA carrier code (letters or digits, e.g. U2, 9W). */
export const Carrier = Type.String({ pattern: '^[A-Z0-9]{2}$', description: '2-letter IATA carrier code' });
/** `YYYY-MM-DD`. */
export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
/** ISO 8601 timestamp with a UTC offset or `Z`. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp with offset or Z' });
export const Email = Type.String({ format: 'email', maxLength: 254 });
/**
 * An int64 (bigserial) id in a path or body, parsed by this type where the route declares it. Ids start at 1
 * and no id of this service gets near 2^53, the last integer a JSON number holds exactly: anything beyond
 * (9223372036854775808, 1e308) is no id — 404 in a path, 422 in a body — and never reaches Postgres.
 */
export const Int64Id = (options: { description?: string } = {}) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, format: 'int64', ...options });
export const HhMm = Type.String({ format: 'hh-mm', description: 'HH:MM (24h)' });
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });

export const Money = Type.Object(
  {
    amount: Type.Number({ minimum: 0 }),
    currency: CurrencyCode,
  },
  { additionalProperties: false, title: 'Money' },
);
export type Money = Static<typeof Money>;

export const Priority = Type.Union([Type.Literal('P1'), Type.Literal('P2'), Type.Literal('P3'), Type.Literal('P4')]);
export type Priority = Static<typeof Priority>;

/** `limit` / `cursor` of every list endpoint (DESIGN section 6: 1..200, default 50). */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
};

/** Helper for enums written as string literal unions. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export type { Static, TSchema };
