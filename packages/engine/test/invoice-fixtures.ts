import {
  matchInvoiceLines,
  NO_FX_RATES,
  type FxTable,
  type InvoiceBooking,
  type InvoiceContract,
  type InvoiceLine,
} from '../src';

/** Invoice fixtures: one hotel, one contract, bookings for each case the statuses cover. */
export const HOTEL = 'LHR-ASTRA';
export const gbp = (amount: number) => ({ amount, currency: 'GBP' });
export const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** GBP 120 a night all year; the airline agreed to one night for a no-show; incidentals are the guest's. */
export const CONTRACT: InvoiceContract = {
  rate_periods: [{ effective_from: '2026-01-01', effective_to: '2026-12-31', rate: gbp(120) }],
  cancellation_terms: {
    cancellation_deadline: { days_before: 0, local_time: '18:00' },
    late_cancellation_fee: { type: 'NIGHTS', nights: 1 },
    no_show_fee: { type: 'NIGHTS', nights: 1 },
  },
};
export const CONTRACTS = new Map([['7', CONTRACT]]);

export const booking = (over: Partial<InvoiceBooking> & { booking_id: string }): InvoiceBooking => ({
  status: 'CONFIRMED',
  property_id: HOTEL,
  contract_id: 7,
  check_in_date: '2026-03-10',
  check_out_date: '2026-03-12',
  ...over,
});

export const BOOKINGS: InvoiceBooking[] = [
  booking({ booking_id: 'b-smith', employee_id: 'E1', guest_name: 'John Smith', confirmation_number: 'ABC123' }),
  booking({
    booking_id: 'b-timely',
    employee_id: 'E2',
    status: 'CANCELLED',
    check_in_date: '2026-03-15',
    check_out_date: '2026-03-16',
  }),
  booking({
    booking_id: 'b-late',
    employee_id: 'E3',
    status: 'CANCELLED',
    check_in_date: '2026-03-20',
    check_out_date: '2026-03-21',
    cancellation_penalty: gbp(120),
  }),
  booking({ booking_id: 'b-split', employee_id: 'E4', check_in_date: '2026-01-30', check_out_date: '2026-02-02' }),
  booking({ booking_id: 'b-noshow', employee_id: 'E5', check_in_date: '2026-03-25', check_out_date: '2026-03-27' }),
];

export const line = (over: Partial<InvoiceLine>): InvoiceLine => ({
  line_number: 1,
  employee_id: 'E1',
  check_in_date: '2026-03-10',
  check_out_date: '2026-03-12',
  nights: 2,
  nightly_rate: gbp(120),
  taxes: gbp(24),
  ...over,
});

export function match(
  lines: InvoiceLine[],
  opts: { billed?: ReadonlySet<string>; contracts?: Map<string, InvoiceContract>; fx?: FxTable } = {},
) {
  return matchInvoiceLines(
    { property_id: HOTEL, lines },
    BOOKINGS,
    opts.billed ?? new Set(),
    opts.contracts ?? CONTRACTS,
    opts.fx ?? NO_FX_RATES,
  );
}
export const one = (l: Partial<InvoiceLine>, opts?: Parameters<typeof match>[1]) => match([line(l)], opts).lines[0]!;
