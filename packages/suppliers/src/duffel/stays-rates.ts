import type { StaysRoomRate } from '@duffel/api/types';
import { SupplierError, SupplierErrorCode } from '../errors';
import type { ContractedStay, StayRateJudgement } from '../types';
import { baseOf, paidAtBooking } from './stays-mapping';

/* The rate of a Duffel Stays room to book, judged by the airline's contract, and the amounts a quote carries. */

/** A Stays operation refused (not retried). */
export const refusal = (operation: string, code: string, message: string) =>
  new SupplierError('refusal', code, `${operation}: ${message}`, { operation });

/** The amounts of a quote, as the booking's metadata keeps them. */
export const amountsOf = (q: {
  base_amount: string | null;
  base_currency: string;
  total_amount: string;
  total_currency: string;
  tax_amount: string | null;
  fee_amount: string | null;
}) => ({
  base_amount: q.base_amount,
  base_currency: q.base_currency,
  total_amount: q.total_amount,
  total_currency: q.total_currency,
  tax_amount: q.tax_amount,
  fee_amount: q.fee_amount,
});

/**
 * The rate to book: paid at booking only; with a contract, an exact match first (a negotiated one before a
 * public one, then the cheapest), else one the lever accepts (LOOSE), else refused; without one, the cheapest.
 */
export function chooseRate(
  rates: readonly StaysRoomRate[],
  nights: readonly string[],
  contract: ContractedStay | undefined,
): { rate: StaysRoomRate; verdict: StayRateJudgement | null } {
  const op = 'hotel.book';
  const payable = rates.filter(paidAtBooking);
  if (payable.length === 0)
    throw refusal(
      op,
      rates.length === 0 ? SupplierErrorCode.NO_AVAILABILITY : 'NO_PREPAID_RATE',
      rates.length === 0 ? 'no room is available' : 'no rate is paid at booking (only pay at the hotel)',
    );
  const byPrice = [...payable].sort(
    (a, b) =>
      Number(a.total_amount) - Number(b.total_amount) ||
      Number(Boolean(b.negotiated_rate_id)) - Number(Boolean(a.negotiated_rate_id)),
  );
  if (!contract) return { rate: byPrice[0]!, verdict: null };
  const judged = byPrice.map((rate) => ({ rate, verdict: contract.judge(baseOf(rate), nights) }));
  const exact = judged.filter((j) => j.verdict.exact);
  const pick = exact.find((j) => j.rate.negotiated_rate_id) ?? exact[0] ?? judged.find((j) => j.verdict.ok);
  if (pick) return pick;
  throw refusal(op, 'RATE_MISMATCH', judged[0]!.verdict.reason ?? 'no rate matches the contract');
}
