import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateString, Email, PageQuery, StringEnum } from './common';

/** `null` clears a field of the profile; an omitted field keeps its value. */
const Clearable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], description ? { description } : {}));

/*
 * Names as on the passport, as Duffel takes them (given_name / family_name): space, `-`, `'` and letters of the
 * ASCII, Latin-1 Supplement and Latin Extended-A charts except Æ æ Ĳ ĳ Œ œ Þ þ ð; 1 to 20 characters. Latin only:
 * a name in another script is given as transliterated in the passport's machine-readable zone. At least one letter.
 */
// Without lookaheads (test generators and some clients cannot read them): the refused letters are cut out of the ranges.
const LETTER =
  'A-Za-z\\u00C0-\\u00C5\\u00C7-\\u00D6\\u00D8-\\u00DD\\u00DF-\\u00E5\\u00E7-\\u00EF\\u00F1-\\u00F6\\u00F8-\\u00FD\\u00FF\\u0100-\\u0131\\u0134-\\u0151\\u0154-\\u017F';
export const PASSPORT_NAME_PATTERN = `^[ '\\-]*[${LETTER}][${LETTER} '\\-]*$`;
const PassportName = Type.String({
  minLength: 1,
  maxLength: 20,
  pattern: PASSPORT_NAME_PATTERN,
  description:
    "As on the passport: 1-20 of letters (ASCII, Latin-1 Supplement, Latin Extended-A, except Æ æ Ĳ ĳ Œ œ Þ þ ð), space, - and '; a name in another script as transliterated in the passport's machine-readable zone",
});

export const IDENTITY_DOCUMENT_TYPES = [
  'PASSPORT',
  'TAX_ID',
  'KNOWN_TRAVELER_NUMBER',
  'PASSENGER_REDRESS_NUMBER',
] as const;

export const IdentityDocumentInput = Type.Object(
  {
    type: StringEnum(IDENTITY_DOCUMENT_TYPES),
    number: Type.String({ pattern: '^[A-Za-z0-9]{1,20}$', description: 'Letters and digits only, 1-20' }),
    issuing_country: Type.String({
      pattern: '^[A-Z]{2}$',
      description: 'ISO 3166-1 alpha-2 code of the issuing country',
    }),
    expires_on: { ...DateString, description: 'YYYY-MM-DD, not in the past' },
  },
  { additionalProperties: false, title: 'IdentityDocumentInput', description: 'Replaced as a whole' },
);

export const TravellerProfileParams = Type.Object({
  employee_id: Type.String({
    minLength: 1,
    maxLength: 32,
    description: "The airline's HR id (the roster's crew anchor)",
  }),
});

export const TravellerProfileBody = Type.Object(
  {
    traveller_email: Type.Optional({
      ...Email,
      description: "Required when the employee has no profile yet; another employee's e-mail is 409",
    }),
    first_name: Clearable(PassportName),
    last_name: Clearable(PassportName),
    date_of_birth: Clearable(DateString, 'YYYY-MM-DD, in the past; a flight booking needs it'),
    gender: Clearable(StringEnum(['m', 'f'])),
    title: Clearable(StringEnum(['mr', 'ms', 'mrs', 'miss', 'dr'])),
    phone_number: Clearable(
      Type.String({ pattern: '^\\+[1-9][0-9]{1,14}$', description: 'E.164, e.g. +447700900123' }),
    ),
    identity_document: Clearable(IdentityDocumentInput),
  },
  { additionalProperties: false, title: 'TravellerProfileBody' },
);
export type TravellerProfileBody = Static<typeof TravellerProfileBody>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const TravellerProfile = Type.Object(
  {
    employee_id: Type.String(),
    traveller_email: Type.String(),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    name: Nullable(Type.String()),
    date_of_birth: Nullable(Type.String()),
    gender: Nullable(Type.String()),
    title: Nullable(Type.String()),
    phone_number: Nullable(Type.String()),
    identity_document: Nullable(
      Type.Object(
        {
          type: Type.String(),
          number: Type.String({ description: 'Masked: only its last 4 characters are shown' }),
          issuing_country: Type.String(),
          expires_on: Type.String(),
        },
        { title: 'IdentityDocument' },
      ),
    ),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TravellerProfile' },
);
export type TravellerProfile = Static<typeof TravellerProfile>;

export const TravellerAuditEntry = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    actor: Type.String({ description: "The token's e-mail (else its client id), or `operator` for the operator API" }),
    action: StringEnum(['CREATE', 'UPDATE']),
    fields: Type.Array(Type.String(), { description: 'Names of the fields that changed; never their values' }),
  },
  { title: 'TravellerAuditEntry' },
);
export const TravellerAuditList = Type.Object(
  { audit: Type.Array(TravellerAuditEntry) },
  { title: 'TravellerAuditList' },
);
export const TravellerAuditQuery = Type.Object({ limit: PageQuery.limit });
