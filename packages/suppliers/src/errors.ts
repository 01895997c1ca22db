/** Supplier failures, reduced to what the booking engine decides on: retry later, or hand to a human. */

/**
 * `transient`: network error, refused connection, timeout, 5xx, 408/429 — nothing was refused, the call
 * may be retried (the booking ends FAILED). `refusal`: the supplier understood and said no — no
 * availability, amend refused, expired offer, invalid request (the booking ends NEEDS_REVIEW).
 */
export type SupplierErrorKind = 'transient' | 'refusal';

/** Codes this package mints, plus the supplier codes the engine is expected to branch on. */
export const SupplierErrorCode = {
  TIMEOUT: 'SUPPLIER_TIMEOUT',
  UNREACHABLE: 'SUPPLIER_UNREACHABLE',
  SERVER_ERROR: 'SUPPLIER_ERROR',
  BAD_RESPONSE: 'SUPPLIER_BAD_RESPONSE',
  REFUSED: 'SUPPLIER_REFUSED',
  OFFER_EXPIRED: 'OFFER_EXPIRED',
  INVALID_OFFER: 'INVALID_OFFER',
  REJECTED: 'REJECTED',
  NO_AVAILABILITY: 'NO_AVAILABILITY',
  REFERENCE_REUSED: 'REFERENCE_REUSED',
  RESERVATION_CANCELLED: 'RESERVATION_CANCELLED',
  UNKNOWN_PROPERTY: 'UNKNOWN_PROPERTY',
  NOT_FOUND: 'NOT_FOUND',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  CANCEL_REFUSED: 'CANCEL_REFUSED',
  INVALID_TRAVELLER: 'INVALID_TRAVELLER',
  /** Ours: the fare to be paid at ordering is above the airline's ceiling; nothing was bought. */
  FARE_ABOVE_CEILING: 'FARE_ABOVE_CEILING',
} as const;

export interface SupplierErrorDetails {
  /** The failed operation, e.g. `hotel.book`. */
  operation: string;
  /** HTTP status when the supplier answered. */
  status?: number;
  details?: Array<{ field: string; issue: string }>;
  cause?: unknown;
  /** The supplier asked us to slow down (429, or 503 with Retry-After): wait this long before calling again. */
  retryAfterMs?: number;
  /** Which supplier's account said it, when the caller runs one per airline (a 429 then pauses only that airline). */
  supplier?: string;
  /**
   * The call would have created something (an order, a confirmed cancellation) and failed in a way that does
   * not tell whether it did: a timeout, a 5xx, a connection cut after the request was sent. The error stays
   * `transient`, but the caller must look the result up (`findOrder`, `getOrder`) before calling again.
   */
  outcomeUnknown?: boolean;
}

export class SupplierError extends Error {
  override readonly name = 'SupplierError';
  readonly operation: string;
  readonly status: number | undefined;
  readonly details: Array<{ field: string; issue: string }>;
  readonly retryAfterMs: number | undefined;
  readonly supplier: string | undefined;
  /** See `SupplierErrorDetails.outcomeUnknown`: look before retrying, the thing may exist. */
  readonly outcomeUnknown: boolean;

  constructor(
    readonly kind: SupplierErrorKind,
    /** UPPER_SNAKE: the supplier's own code when it sent one, else one of SupplierErrorCode. */
    readonly code: string,
    message: string,
    info: SupplierErrorDetails,
  ) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.operation = info.operation;
    this.status = info.status;
    this.details = info.details ?? [];
    this.retryAfterMs = info.retryAfterMs;
    this.supplier = info.supplier;
    this.outcomeUnknown = info.outcomeUnknown ?? false;
  }

  /** A supplier pacing us (429, or 503 with Retry-After): the task should wait, not fail. */
  get rateLimited(): boolean {
    return this.retryAfterMs !== undefined;
  }

  get transient(): boolean {
    return this.kind === 'transient';
  }
}

export function isSupplierError(err: unknown): err is SupplierError {
  return err instanceof SupplierError;
}
