import { sql } from 'kysely';
import type { Money } from '@crew/contracts';
import type { DbOrTrx } from '../database';

/** One amount of the spend report, summed per day, station, hotel and currency (the caller converts). */
export interface SpendEntryRow {
  measure: 'hotels_booked' | 'flights_booked' | 'penalties_paid' | 'penalties_avoided' | 'disputed';
  date: string;
  station: string;
  hotel: string | null;
  amount: Money;
}

/**
 * The airline's amounts dated within [from, to] (inclusive): live stays' prices by check-in, live flights' fares
 * by departure, fees paid on and avoided by hotel cancellations and disputed invoice lines by the stay's check-in. One scan of the airline's
 * bookings, summed in SQL per day, station, hotel and currency, so the rows returned stay few however many
 * bookings there are.
 */
export async function spendEntries(db: DbOrTrx, airlineId: string, from: string, to: string): Promise<SpendEntryRow[]> {
  const { rows } = await sql<{
    measure: SpendEntryRow['measure'];
    date: string;
    station: string | null;
    hotel: string | null;
    currency: string;
    amount: string;
  }>`
    with stays as (
      select coalesce(b.hotel ->> 'check_in_date', left(b.checkin_time_local, 10)) as date,
             b.station, b.hotel ->> 'property_id' as hotel, b.status, b.hotel as block
        from bookings b
       where b.airline_id = ${airlineId} and b.type = 'HOTEL'
    ),
    flights as (
      select left(coalesce(b.dep_time_local, b.duty_date::text), 10) as date,
             coalesce(b.flight ->> 'from_airport', b.from_airport) as station, b.status, b.flight as block
        from bookings b
       where b.airline_id = ${airlineId} and b.type = 'FLIGHT'
    ),
    amounts as (
      select 'hotels_booked' as measure, date, station, hotel, block -> 'total_price' as money
        from stays where status in ('CONFIRMED', 'MODIFIED')
      union all
      select 'penalties_paid', date, station, hotel, block -> 'cancellation_penalty' from stays
      union all
      select 'penalties_avoided', date, station, hotel, block -> 'cancellation_penalty_avoided' from stays
      union all
      select 'flights_booked', date, station, null, block -> 'price'
        from flights where status in ('CONFIRMED', 'MODIFIED')
      union all
      -- A disputed invoice line counts at its stay's station (a line without a booking: its hotel's station).
      select 'disputed', l.check_in_date::text,
             coalesce(b.station, (select h.base_station from hotel_configs h
                                   where h.airline_id = i.airline_id and h.property_id = i.property_id
                                   order by h.hotel_config_id limit 1)),
             i.property_id,
             jsonb_build_object('amount', l.disputed_amount, 'currency', l.disputed_currency)
        from invoices i
        join invoice_lines l on l.invoice_id = i.invoice_id
        left join bookings b on b.booking_id = l.booking_id
       where i.airline_id = ${airlineId} and l.disputed_amount > 0
         and l.check_in_date between ${from}::date and ${to}::date
    )
    select measure, date, station, hotel, money ->> 'currency' as currency, sum((money ->> 'amount')::numeric)::text as amount
      from amounts
     where jsonb_typeof(money) = 'object' and date between ${from} and ${to}
     group by measure, date, station, hotel, money ->> 'currency'`.execute(db);
  return rows.map((r) => ({
    measure: r.measure,
    date: r.date,
    station: r.station ?? '',
    hotel: r.hotel,
    amount: { amount: Number(r.amount), currency: r.currency },
  }));
}
