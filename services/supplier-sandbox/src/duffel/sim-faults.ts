/** The operations of the Duffel-dialect simulation and the faults a test can arm on them, per token. */

export const DUFFEL_OPERATIONS = [
  'offer_requests.create',
  'offers.get',
  'orders.create',
  'orders.get',
  'orders.list',
  'order_cancellations.create',
  'order_cancellations.confirm',
  'airlines.list',
  'webhooks.create',
  'webhooks.list',
  'webhooks.delete',
  'airline_initiated_changes.list',
  'airline_initiated_changes.get',
  'airline_initiated_changes.accept',
  'stays.accommodation.get',
  'stays.accommodation.list',
  'places.suggestions',
  'stays.search',
  'stays.fetch_all_rates',
  'stays.quotes.create',
  'stays.bookings.create',
  'stays.bookings.get',
  'stays.bookings.list',
  'stays.bookings.cancel',
] as const;
export type DuffelOperation = (typeof DUFFEL_OPERATIONS)[number];

export const DUFFEL_OUTCOMES = [
  'timeout',
  'error',
  'rate_limited',
  'offer_gone',
  'price_moved',
  'cancel_refused',
  'insufficient_balance',
  'no_availability',
  'hold',
] as const;
export type DuffelOutcome = (typeof DUFFEL_OUTCOMES)[number];

export interface DuffelFault {
  operation: DuffelOperation;
  outcome: DuffelOutcome;
  remaining: number;
  /** rate_limited: the window resets this many seconds from now (default 2). */
  retry_after_s?: number;
  /** price_moved: added to the offer's total (default +10.00). */
  price_delta?: number;
  /** error: do the operation first, then answer 500 (the order exists though the caller saw a failure). */
  after_effect?: boolean;
}
