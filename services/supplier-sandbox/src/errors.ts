/**
 * The sandbox's own error codes, in the API's envelope. Business refusals are 409 (the request was
 * understood but the supplier says no) or 422 (it names something the supplier cannot use); 5xx is
 * reserved for infrastructure, so a client can tell "retry later" from "needs a human".
 */
import { ApiError } from '@crew/platform';

export const SandboxErrorCode = {
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  INVALID_OFFER: 'INVALID_OFFER',
  REJECTED: 'REJECTED',
  NO_AVAILABILITY: 'NO_AVAILABILITY',
  REFERENCE_REUSED: 'REFERENCE_REUSED',
  RESERVATION_CANCELLED: 'RESERVATION_CANCELLED',
  UNKNOWN_PROPERTY: 'UNKNOWN_PROPERTY',
  SUPPLIER_UNAVAILABLE: 'SUPPLIER_UNAVAILABLE',
  RATE_LIMITED: 'RATE_LIMITED',
} as const;

/** Longest stay the sandbox sells; longer ones are refused as a realistic "no availability". */
export const MAX_NIGHTS = 30;

export const sandboxErrors = {
  offerExpired: () =>
    ApiError.conflict('The flight offer has expired; search again for a fresh one', SandboxErrorCode.OFFER_EXPIRED),
  invalidOffer: () =>
    ApiError.unprocessable(SandboxErrorCode.INVALID_OFFER, 'The flight_option_id was not issued by this supplier', [
      { field: '/flight_option_id', issue: 'is not a valid offer id' },
    ]),
  rejected: (message: string) => ApiError.conflict(message, SandboxErrorCode.REJECTED),
  noAvailability: (message: string) => ApiError.conflict(message, SandboxErrorCode.NO_AVAILABILITY),
  referenceReused: () =>
    ApiError.conflict('This reference was already used for a different request', SandboxErrorCode.REFERENCE_REUSED),
  cancelled: () =>
    ApiError.conflict('The reservation is cancelled and cannot be changed', SandboxErrorCode.RESERVATION_CANCELLED),
  unknownProperty: () =>
    ApiError.unprocessable(SandboxErrorCode.UNKNOWN_PROPERTY, 'No such property in the GDS inventory', [
      { field: '/property_id', issue: 'is not in the inventory' },
    ]),
  unavailable: () =>
    new ApiError(503, SandboxErrorCode.SUPPLIER_UNAVAILABLE, 'The supplier is temporarily unavailable'),
  rateLimited: (retryAfterS: number) =>
    new ApiError(429, SandboxErrorCode.RATE_LIMITED, 'Too many requests; slow down', [], {
      'Retry-After': String(retryAfterS),
    }),
};
