import { Type, type Static } from '@sinclair/typebox';

/** Error codes of spec section 7 plus the ones DESIGN adds; UPPER_SNAKE. */
export const ErrorCode = {
  INVALID_REQUEST: 'INVALID_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNKNOWN_HOTEL_PROPERTY: 'UNKNOWN_HOTEL_PROPERTY',
  CONTRACT_REQUIRED_FOR_RATE: 'CONTRACT_REQUIRED_FOR_RATE',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  TRAVELLER_NOT_FOUND: 'TRAVELLER_NOT_FOUND',
  DATE_OF_BIRTH_REQUIRED: 'DATE_OF_BIRTH_REQUIRED',
  INVALID_SCOPE: 'INVALID_SCOPE',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one error envelope of spec section 7. */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' }),
      message: Type.String(),
      details: Type.Array(Type.Object({ field: Type.String(), issue: Type.String() })),
    }),
    status: Type.Integer(),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
