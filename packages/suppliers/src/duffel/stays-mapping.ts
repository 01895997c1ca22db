/**
 * Duffel Stays bookings mapped onto our HotelReservation. A Stays booking carries no price, so what we need
 * later (amounts, rate source, the cancellation timeline, our reference) rides in its metadata (string
 * values, 500 characters each). An extension is a second, adjoining booking: our supplier_ref names every
 * booking of the stay, joined by `+` (never in a Duffel id), so reading and cancelling reach them all.
 */
import type { StaysAccommodation, StaysBooking, StaysRate } from '@duffel/api/types';
import type { CancellationStep, HotelProperty, HotelReservation } from '../types';
import { money } from './mapping';

export const STAY_META = {
  reference: 'crew_reference',
  booker: 'booker_email',
  base: 'base_amount',
  total: 'total_amount',
  currency: 'currency',
  source: 'rate_source',
  flag: 'rate_flag',
  timeline: 'cancellation_timeline',
} as const;

const JOIN = '+';

export function bookingIds(supplierRef: string): string[] {
  return supplierRef.split(JOIN).filter((id) => id.length > 0);
}

export function joinIds(ids: readonly string[]): string {
  return ids.join(JOIN);
}

/** The nights of a room, check-in up to the day before check-out. */
export function nightsBetween(checkIn: string, checkOut: string): string[] {
  const nights: string[] = [];
  for (let t = Date.parse(`${checkIn}T00:00:00Z`); t < Date.parse(`${checkOut}T00:00:00Z`); t += 86_400_000)
    nights.push(new Date(t).toISOString().slice(0, 10));
  return nights;
}

/** The base amount of a rate (before tax and fees); derived from the total when Duffel leaves it null. */
export function baseOf(
  rate: Pick<
    StaysRate,
    'base_amount' | 'base_currency' | 'total_amount' | 'total_currency' | 'tax_amount' | 'fee_amount'
  >,
): { amount: number; currency: string } {
  if (rate.base_amount !== null) return money(rate.base_amount, rate.base_currency);
  const amount = Number(rate.total_amount) - Number(rate.tax_amount ?? 0) - Number(rate.fee_amount ?? 0);
  return { amount: Math.round(amount * 100) / 100, currency: rate.total_currency };
}

/**
 * Paid by the airline in full at booking, from the Duffel balance: never a guarantee, a deposit or an amount
 * due at the hotel, which would leave the crew member to pay at the desk.
 */
export function paidAtBooking(
  rate: Pick<StaysRate, 'payment_type' | 'available_payment_methods' | 'due_at_accommodation_amount'>,
): boolean {
  return (
    rate.payment_type === 'pay_now' &&
    rate.available_payment_methods.includes('balance') &&
    !(Number(rate.due_at_accommodation_amount ?? 0) > 0)
  );
}

export function timelineOf(rate: Pick<StaysRate, 'cancellation_timeline'>): CancellationStep[] {
  return rate.cancellation_timeline.map((s) => ({ before: s.before, refund: money(s.refund_amount, s.currency) }));
}

/** The metadata a booking keeps: our reference, the booker, the rate's amounts, source, flag and timeline. */
export function stayMetadata(
  reference: string,
  booker: string,
  rate: Pick<
    StaysRate,
    | 'base_amount'
    | 'base_currency'
    | 'total_amount'
    | 'total_currency'
    | 'tax_amount'
    | 'fee_amount'
    | 'cancellation_timeline'
    | 'negotiated_rate_id'
  >,
  flag: string | null,
): Record<string, string> {
  const timeline = JSON.stringify(rate.cancellation_timeline.map((s) => [s.before, s.refund_amount, s.currency]));
  const meta: Record<string, string> = {
    [STAY_META.reference]: reference,
    [STAY_META.booker]: booker,
    [STAY_META.base]: baseOf(rate).amount.toFixed(2),
    [STAY_META.total]: rate.total_amount,
    [STAY_META.currency]: rate.total_currency,
    [STAY_META.source]: rate.negotiated_rate_id ? 'NEGOTIATED' : 'PUBLIC',
  };
  if (timeline.length <= 500) meta[STAY_META.timeline] = timeline;
  if (flag) meta[STAY_META.flag] = flag.slice(0, 500);
  return meta;
}

function metaTimeline(raw: string | undefined): CancellationStep[] {
  try {
    const steps = JSON.parse(raw ?? '[]') as Array<[string, string, string]>;
    return steps.map(([before, amount, currency]) => ({ before, refund: money(amount, currency) }));
  } catch {
    return [];
  }
}

const add = (a: number, b: number) => Math.round((a + b) * 100) / 100;

/** The stay's bookings (in order: the first, then each extension) as one reservation. */
export function toReservation(bookings: readonly StaysBooking[], liveMode: boolean): HotelReservation {
  const first = bookings[0];
  const last = bookings[bookings.length - 1];
  if (!first || !last) throw new Error('a reservation needs at least one Stays booking');
  const meta = first.metadata ?? {};
  const currency = meta[STAY_META.currency] ?? '';
  let base = 0;
  let total = 0;
  for (const b of bookings) {
    base = add(base, Number(b.metadata?.[STAY_META.base] ?? 0));
    total = add(total, Number(b.metadata?.[STAY_META.total] ?? 0));
  }
  const nights = nightsBetween(first.check_in_date, last.check_out_date).length;
  const guest = first.guests[0];
  const cancelled = bookings.every((b) => b.status === 'cancelled');
  const references = bookings.map((b) => b.reference);
  const flags = bookings.map((b) => b.metadata?.[STAY_META.flag]).filter((f): f is string => Boolean(f));
  const cancelledAt = cancelled ? bookings.map((b) => b.cancelled_at ?? '').sort()[bookings.length - 1] || null : null;
  return {
    supplier_ref: joinIds(bookings.map((b) => b.id)),
    reference: meta[STAY_META.reference] ?? '',
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    property_id: first.accommodation.id,
    property_name: first.accommodation.name,
    // Duffel names no airport for an accommodation.
    airport_code: '',
    check_in_date: first.check_in_date,
    check_out_date: last.check_out_date,
    nights,
    traveller: { email: first.email, name: guest ? `${guest.given_name} ${guest.family_name}` : '' },
    booker_email: meta[STAY_META.booker] ?? '',
    // The base amount per night on average: informative; the contract was judged night by night at booking.
    nightly_rate: { amount: nights > 0 ? Math.round((base / nights) * 100) / 100 : 0, currency },
    total_price: { amount: total, currency },
    rate_source: bookings.every((b) => b.metadata?.[STAY_META.source] === 'NEGOTIATED') ? 'NEGOTIATED' : 'PUBLIC',
    amendments: bookings.length - 1,
    created_at: first.confirmed_at,
    updated_at:
      [...bookings.map((b) => b.cancelled_at ?? b.confirmed_at)].sort()[bookings.length - 1] ?? first.confirmed_at,
    cancelled_at: cancelledAt,
    supplier: 'DUFFEL',
    live_mode: liveMode,
    // The hotel's number comes after the booking: null until every booking of the stay has one.
    confirmation_number: references.every((r) => r) ? references.join(' + ') : null,
    supplier_booking_ids: bookings.map((b) => b.id),
    cancellation_timeline: bookings.flatMap((b) => metaTimeline(b.metadata?.[STAY_META.timeline])),
    rate_flag: flags.length > 0 ? flags.join('; ') : null,
  };
}

const RAD = Math.PI / 180;

/**
 * An accommodation as the hotel port's property; found near an airport, with its distance from it (km).
 * Stays names a chain but no GDS chain code, time zone or public rate.
 */
export function propertyNear(
  acc: StaysAccommodation,
  airportCode = '',
  airport?: { latitude: number; longitude: number },
): HotelProperty {
  const at = acc.location.geographic_coordinates;
  const km =
    at && airport
      ? 2 *
        6371 *
        Math.asin(
          Math.sqrt(
            Math.sin(((at.latitude - airport.latitude) * RAD) / 2) ** 2 +
              Math.cos(airport.latitude * RAD) *
                Math.cos(at.latitude * RAD) *
                Math.sin(((at.longitude - airport.longitude) * RAD) / 2) ** 2,
          ),
        )
      : 0;
  return {
    property_id: acc.id,
    name: acc.name,
    chain: '',
    chain_name: acc.chain?.name ?? '',
    city: acc.location.address.city_name,
    country: acc.location.address.country_code,
    airport_code: airportCode,
    timezone: '',
    distance_km: Math.round(km * 10) / 10,
    nightly_rate: { amount: 0, currency: '' },
  };
}
