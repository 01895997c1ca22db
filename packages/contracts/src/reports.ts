import { Type, type Static } from '@sinclair/typebox';
import { CurrencyCode, DateString, Money, StringEnum } from './common';

/* The airline's spend report: what it booked, the fees it paid and avoided, and what it disputes. */

export const SPEND_GROUP_BY = ['station', 'hotel', 'month'] as const;
export const SpendGroupBy = StringEnum(SPEND_GROUP_BY, {
  description:
    'station: the stay’s station, the flight’s departure airport. hotel: the property id (flights, which have no hotel, form one group keyed FLIGHTS). month: YYYY-MM of the date.',
});

export const SpendQuery = Type.Object(
  {
    from: {
      ...DateString,
      description: 'First day of the period (inclusive): stays by check-in, flights by departure',
    },
    to: { ...DateString, description: 'Last day of the period (inclusive)' },
    group_by: Type.Optional({ ...SpendGroupBy, default: 'station' }),
    currency: Type.Optional({
      ...CurrencyCode,
      default: 'USD',
      description: 'The reporting currency; each amount is converted at the operator’s FX rate of its own date',
    }),
  },
  { additionalProperties: false },
);
export type SpendQuery = Static<typeof SpendQuery>;

const measure = (description: string) => ({ ...Money, description });

export const SpendGroup = Type.Object(
  {
    key: Type.String({ description: 'The station, the property id (or FLIGHTS), or the month (YYYY-MM)' }),
    hotels_booked: measure('The price of the live (CONFIRMED or MODIFIED) hotel bookings checking in in the period'),
    flights_booked: measure('The fares of the live flight bookings departing in the period'),
    penalties_paid: measure(
      'Fees recorded on hotel bookings cancelled after the deadline (hotel.cancellation_penalty)',
    ),
    penalties_avoided: measure(
      'The late-cancellation fees the cancellations made in time would have cost after the deadline',
    ),
    disputed: measure('What the hotels’ invoices billed and the reconciliation disputes, for stays in the period'),
  },
  { additionalProperties: false, title: 'SpendGroup' },
);
export type SpendGroup = Static<typeof SpendGroup>;

export const SpendReport = Type.Object(
  {
    from: DateString,
    to: DateString,
    group_by: SpendGroupBy,
    currency: CurrencyCode,
    groups: Type.Array(SpendGroup, { description: 'One per key with any amount, sorted by key' }),
    unconverted: Type.Array(
      Type.Object({ currency: CurrencyCode, entries: Type.Integer() }, { additionalProperties: false }),
      {
        description:
          'Amounts left out because the operator’s FX table has no rate for their currency on their date (set one with PUT /ops/v1/fx-rates)',
      },
    ),
  },
  { additionalProperties: false, title: 'SpendReport' },
);
export type SpendReport = Static<typeof SpendReport>;

/** The CSV export's columns: one row per group, each amount's number in the report's currency. */
export const SPEND_CSV_COLUMNS = [
  'key',
  'currency',
  'hotels_booked',
  'flights_booked',
  'penalties_paid',
  'penalties_avoided',
  'disputed',
] as const;
