/**
 * Duffel-shaped offers from the sandbox's deterministic timetable (same carriers, flight numbers, times and
 * zones as the sandbox's own flights), typed with `@duffel/api`'s own types so a drift of Duffel's shapes
 * fails the type check. Times are local without offset, as Duffel sends them, next to each airport's zone.
 */
import type {
  Airline,
  Airport,
  CabinClass,
  Offer,
  OfferSliceSegment,
  OfferRequestSlice,
  FlightsConditions,
} from '@duffel/api/types';
import { hash32 } from '@crew/platform';
import { findAirport } from '../airports';
import { CARRIERS, findCarrier, flightOffersFor, type OfferContent } from '../flights';
import type { Cabin } from '../schemas';

/** The account's currency: Duffel prices everything in it. Fares are converted from the timetable's USD. */
export const CURRENCY_RATES: Readonly<Record<string, number>> = { USD: 1, GBP: 0.79, EUR: 0.92 };

/** How long Duffel keeps an offer (longer than our 20 minutes, so both expiries are exercised). */
export const DUFFEL_OFFER_TTL_MS = 30 * 60 * 1000;

/** A connecting hub for one-stop itineraries. */
const HUBS = ['AMS', 'FRA', 'LHR', 'ORD'];

export function airlineOf(code: string): Airline {
  const carrier = findCarrier(code);
  return {
    id: `arl_${String(hash32(code)).padStart(10, '0')}`,
    name: carrier?.name ?? code,
    iata_code: code,
    logo_symbol_url: `https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/${code}.svg`,
    logo_lockup_url: null,
    conditions_of_carriage_url: null,
  };
}

export const AIRLINES: readonly Airline[] = CARRIERS.map((c) => airlineOf(c.code));

export function airportOf(code: string): Airport & { type: 'airport' } {
  const info = findAirport(code);
  const country = info?.country ?? 'ZZ';
  return {
    type: 'airport',
    id: `arp_${code.toLowerCase()}_${country.toLowerCase()}`,
    iata_code: code,
    icao_code: '',
    name: info ? `${info.city} ${code}` : code,
    city_name: info?.city ?? code,
    iata_city_code: null,
    iata_country_code: country,
    latitude: info?.lat ?? 0,
    longitude: info?.lon ?? 0,
    time_zone: info?.timezone ?? 'UTC',
    city: null,
  };
}

/** `2025-07-01T09:05:00+02:00` → `2025-07-01T09:05:00`: the sandbox's times already carry local wall time. */
const local = (iso: string) => iso.slice(0, 19);

const duration = (minutes: number) =>
  `PT${String(Math.floor(minutes / 60)).padStart(2, '0')}H${String(minutes % 60).padStart(2, '0')}M`;

function conditions(cabin: Cabin, currency: string): FlightsConditions {
  const premium = cabin === 'BUSINESS' || cabin === 'FIRST';
  return {
    refund_before_departure: premium
      ? { allowed: true, penalty_amount: '0.00', penalty_currency: currency }
      : { allowed: false, penalty_amount: null, penalty_currency: null },
    change_before_departure: { allowed: true, penalty_amount: premium ? '0.00' : '60.00', penalty_currency: currency },
  };
}

/** A Duffel offer as the inventory makes it, before the simulation gives it ids and times. */
export interface OfferDraft {
  segments: Array<{ content: OfferContent; operating: string }>;
  cabin: CabinClass;
  usd: number;
}

/** Every fourth flight is a codeshare operated by another carrier, so `operating_carrier` differs. */
function operatingCarrier(content: OfferContent, index: number): string {
  if (index % 4 !== 3) return content.airline_code;
  const others = CARRIERS.filter((c) => c.code !== content.airline_code);
  return others[hash32(content.flight_number) % others.length]!.code;
}

/** Nonstop departures of the day, plus (when connections are allowed) one-stop itineraries over a hub. */
export function draftsFor(from: string, to: string, date: string, cabin: Cabin, maxConnections: number): OfferDraft[] {
  const cabinClass = cabin.toLowerCase() as CabinClass;
  const direct = flightOffersFor(from, to, date).filter((o) => o.cabin === cabin);
  const drafts: OfferDraft[] = direct.map((content, i) => ({
    segments: [{ content, operating: operatingCarrier(content, i) }],
    cabin: cabinClass,
    usd: content.price.amount,
  }));
  if (maxConnections < 1) return drafts;
  const hub = HUBS.find((h) => h !== from && h !== to);
  if (!hub) return drafts;
  const firstLegs = flightOffersFor(from, hub, date).filter((o) => o.cabin === cabin);
  for (const first of firstLegs.slice(0, 3)) {
    const arrives = Date.parse(first.arr_time);
    const second = flightOffersFor(hub, to, first.arr_time.slice(0, 10)).find(
      (o) => o.cabin === cabin && Date.parse(o.dep_time) >= arrives + 60 * 60000,
    );
    if (!second) continue;
    drafts.push({
      segments: [
        { content: first, operating: first.airline_code },
        { content: second, operating: second.airline_code },
      ],
      cabin: cabinClass,
      // Connections sell below the nonstop fare, as they do.
      usd: Math.round((first.price.amount + second.price.amount) * 0.7),
    });
  }
  return drafts;
}

export interface OfferIds {
  offerId: string;
  passengerId: string;
  sliceId: string;
  segmentIds: string[];
}

/** A full Duffel offer from a draft, priced in the account's currency. */
export function buildOffer(
  draft: OfferDraft,
  ids: OfferIds,
  slice: OfferRequestSlice,
  currency: string,
  createdAt: number,
  liveMode: boolean,
): Offer {
  const rate = CURRENCY_RATES[currency] ?? 1;
  const total = (draft.usd * rate).toFixed(2);
  const tax = (draft.usd * rate * 0.18).toFixed(2);
  const cabin = draft.cabin.toUpperCase() as Cabin;
  const segments: OfferSliceSegment[] = draft.segments.map(({ content, operating }, i) => ({
    id: ids.segmentIds[i] ?? `seg_${i}`,
    aircraft: { id: 'arc_00009VMF8AhXSSRnQDI6Hi', name: 'Airbus A320', iata_code: '320' },
    origin: airportOf(content.from_airport),
    destination: airportOf(content.to_airport),
    origin_terminal: null,
    destination_terminal: null,
    departing_at: local(content.dep_time),
    arriving_at: local(content.arr_time),
    duration: duration(content.duration_minutes),
    distance: null,
    marketing_carrier: airlineOf(content.airline_code),
    marketing_carrier_flight_number: content.flight_number.slice(content.airline_code.length),
    operating_carrier: airlineOf(operating),
    operating_carrier_flight_number: content.flight_number.slice(content.airline_code.length),
    stops: [],
    passengers: [
      {
        passenger_id: ids.passengerId,
        cabin_class: draft.cabin,
        cabin_class_marketing_name: draft.cabin.replace('_', ' '),
        fare_basis_code: `${draft.cabin[0]!.toUpperCase()}LOWSIM`,
        baggages: [{ type: 'carry_on', quantity: 1 }],
        cabin: null,
      },
    ],
  }));
  const first = draft.segments[0]!.content;
  const last = draft.segments[draft.segments.length - 1]!.content;
  const created = new Date(createdAt).toISOString();
  return {
    id: ids.offerId,
    live_mode: liveMode,
    created_at: created,
    updated_at: created,
    expires_at: new Date(createdAt + DUFFEL_OFFER_TTL_MS).toISOString(),
    total_amount: total,
    total_currency: currency,
    base_amount: (Number(total) - Number(tax)).toFixed(2),
    base_currency: currency,
    tax_amount: tax,
    tax_currency: currency,
    total_emissions_kg: String(Math.round(draft.usd * 0.4)),
    owner: airlineOf(first.airline_code),
    conditions: conditions(cabin, currency),
    passengers: [{ id: ids.passengerId, type: 'adult', age: null, fare_type: null }],
    passenger_identity_documents_required: false,
    supported_passenger_identity_document_types: ['passport'],
    payment_requirements: {
      requires_instant_payment: false,
      payment_required_by: null,
      price_guarantee_expires_at: null,
    },
    private_fares: [],
    available_services: [],
    partial: false,
    supported_loyalty_programmes: [],
    slices: [
      {
        id: ids.sliceId,
        origin: airportOf(slice.origin.iata_code ?? first.from_airport),
        origin_type: 'airport',
        destination: airportOf(slice.destination.iata_code ?? last.to_airport),
        destination_type: 'airport',
        duration: duration(Math.round((Date.parse(last.arr_time) - Date.parse(first.dep_time)) / 60000)),
        fare_brand_name: cabin === 'ECONOMY' ? 'Basic' : 'Flex',
        segments,
        conditions: {
          ...conditions(cabin, currency),
          advance_seat_selection: cabin !== 'ECONOMY',
          priority_boarding: cabin !== 'ECONOMY',
          priority_check_in: cabin !== 'ECONOMY',
        },
        ngs_shelf: null,
        comparison_key: String(
          hash32(draft.segments.map((s) => s.content.flight_number + s.content.dep_time).join('|')),
        ),
      },
    ],
  };
}
