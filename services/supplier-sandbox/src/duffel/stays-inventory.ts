/**
 * Duffel Stays accommodation for the simulation: a few deterministic properties a short ride from real
 * airports, each with one room sold at two rates — paid now from the Duffel balance, and a cheaper one paid
 * at the hotel (a card guarantee) — so an adapter that books the cheapest rate is caught. Prices are a base
 * amount per night (weekend nights cheaper) plus the city's tax, in the hotel's currency. Typed with
 * `@duffel/api`'s own Stays types so a drift of Duffel's shapes fails the type check.
 */
import type { StaysAccommodation, StaysRateCancellationTimeline, StaysRoomRate } from '@duffel/api/types';
import { AIRPORTS, countryPricing, findAirport, type AirportInfo } from '../airports';

export interface SimAccommodation {
  id: string;
  name: string;
  airport: string;
  chain: string;
  currency: string;
  /** Base amount of a Sunday..Thursday night, and of a Friday or Saturday night. */
  weekday: number;
  weekend: number;
  /** Tax on the base amount (VAT, city tax), as a fraction. */
  tax: number;
  /** Offset from the airport, degrees. */
  dLat: number;
  dLon: number;
}

/** Hand-written properties: the ones the adapter and booking tests name. */
const NAMED: readonly SimAccommodation[] = [
  {
    id: 'acc_0000AgZitpOhSLHRcrew01',
    name: 'Heathrow Crew Court',
    airport: 'LHR',
    chain: 'Crewline Hotels',
    currency: 'GBP',
    weekday: 150,
    weekend: 120,
    tax: 0.2,
    dLat: 0.01,
    dLon: -0.02,
  },
  // A second Heathrow property, so a search near one airport has a choice (and a page to turn).
  {
    id: 'acc_0000AgZitpOhSLHRcrew02',
    name: 'Bath Road Aparthotel',
    airport: 'LHR',
    chain: 'Layover Lodges',
    currency: 'GBP',
    weekday: 140,
    weekend: 115,
    tax: 0.2,
    dLat: 0.02,
    dLon: 0.03,
  },
  {
    id: 'acc_0000AgZitpOhSJFKcrew01',
    name: 'Jamaica Bay Airport Inn',
    airport: 'JFK',
    chain: 'Crewline Hotels',
    currency: 'USD',
    weekday: 189,
    weekend: 159,
    tax: 0.1475,
    dLat: 0.02,
    dLon: 0.01,
  },
  {
    id: 'acc_0000AgZitpOhSCDGcrew01',
    name: 'Roissy Aérogare Hôtel',
    airport: 'CDG',
    chain: 'Escale',
    currency: 'EUR',
    weekday: 130,
    weekend: 110,
    tax: 0.1,
    dLat: -0.01,
    dLon: 0.02,
  },
  {
    id: 'acc_0000AgZitpOhSFRAcrew01',
    name: 'Frankfurt Gateway Stay',
    airport: 'FRA',
    chain: 'Escale',
    currency: 'EUR',
    weekday: 125,
    weekend: 105,
    tax: 0.07,
    dLat: 0.01,
    dLon: 0.01,
  },
];

const CHAINS = ['Crewline Hotels', 'Escale', 'Layover Lodges'] as const;

/** A small stable number from an airport code (no randomness: the inventory is the same on every run). */
const seed = (code: string) => [...code].reduce((n, c) => n * 31 + c.charCodeAt(0), 7);

/**
 * One property near every other airport of the sandbox's table, so an airline's Duffel account knows a hotel
 * wherever its crews lay over: priced at the country's hotel level, a few kilometres from the airport.
 */
function generated(airport: AirportInfo): SimAccommodation {
  const s = seed(airport.code);
  const pricing = countryPricing(airport.country);
  const weekday = Math.round(pricing.nightlyUsd * pricing.perUsd);
  return {
    id: `acc_0000AgZitpOhS${airport.code}crew01`,
    name: `${airport.city} ${airport.code} Crew Lodge`,
    airport: airport.code,
    chain: CHAINS[s % CHAINS.length]!,
    currency: pricing.currency,
    weekday,
    weekend: Math.round(weekday * 0.85),
    tax: 0.1,
    dLat: ((s % 5) - 2) * 0.01 || 0.015,
    dLon: ((Math.floor(s / 5) % 5) - 2) * 0.01 || -0.015,
  };
}

export const STAYS_ACCOMMODATIONS: readonly SimAccommodation[] = Object.freeze([
  ...NAMED,
  ...AIRPORTS.filter((a) => !NAMED.some((n) => n.airport === a.code)).map(generated),
]);

const BY_ID = new Map(STAYS_ACCOMMODATIONS.map((a) => [a.id, a]));

export function findAccommodation(id: string): SimAccommodation | undefined {
  return BY_ID.get(id);
}

const RAD = Math.PI / 180;

/** Great-circle distance in km between two positions. */
export function kmBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h =
    Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** The accommodation within `radiusKm` of a position (Duffel's list by location), in id order. */
export function accommodationNear(latitude: number, longitude: number, radiusKm: number): SimAccommodation[] {
  return STAYS_ACCOMMODATIONS.filter((acc) => {
    const airport = findAirport(acc.airport);
    return (
      airport !== undefined &&
      kmBetween(latitude, longitude, airport.lat + acc.dLat, airport.lon + acc.dLon) <= radiusKm
    );
  }).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The accommodation near an airport: the hand-written ones first, then the generated one. */
export function accommodationsAt(airport: string): SimAccommodation[] {
  return STAYS_ACCOMMODATIONS.filter((a) => a.airport === airport);
}

/** The pay-at-hotel rate's saving per night: cheaper, so picking by price alone would take it. */
const PAY_AT_HOTEL_DISCOUNT = 10;
/** A negotiated rate's saving on the base amount, as a fraction. */
const NEGOTIATED_DISCOUNT = 0.1;

const cents = (n: number) => n.toFixed(2);
const DAY_MS = 86_400_000;

/** Fridays and Saturdays are weekend nights. */
export function nightlyBase(acc: SimAccommodation, night: string): number {
  const day = new Date(`${night}T00:00:00Z`).getUTCDay();
  return day === 5 || day === 6 ? acc.weekend : acc.weekday;
}

export function nightsOf(checkIn: string, checkOut: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${checkIn}T00:00:00Z`); t < Date.parse(`${checkOut}T00:00:00Z`); t += DAY_MS)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export function accommodationOf(acc: SimAccommodation, rooms: StaysAccommodation['rooms'] = []): StaysAccommodation {
  const airport = findAirport(acc.airport);
  return {
    id: acc.id,
    name: acc.name,
    amenities: [{ type: 'wifi', description: 'Free Wi-Fi' }],
    chain: { id: `chn_${acc.chain.replace(/\W/g, '').toLowerCase()}`, name: acc.chain },
    brand: null,
    check_in_information: { check_in_after_time: '14:00', check_out_before_time: '12:00' },
    key_collection: null,
    email: null,
    location: {
      address: {
        city_name: airport?.city ?? acc.airport,
        country_code: airport?.country ?? 'ZZ',
        line_one: `1 ${acc.airport} Airport Road`,
        postal_code: '00000',
      },
      geographic_coordinates: airport ? { latitude: airport.lat + acc.dLat, longitude: airport.lon + acc.dLon } : null,
    },
    phone_number: null,
    rating: 3,
    ratings: null,
    review_count: null,
    review_score: null,
    rooms,
    supported_loyalty_programme: null,
  };
}

export interface RateDraft {
  kind: 'pay_now' | 'pay_at_hotel' | 'negotiated';
  base: number;
  negotiatedRateId: string | null;
}

/** The rates of a stay: pay-now and pay-at-hotel, plus a negotiated pay-now rate when the search named one. */
export function rateDrafts(
  acc: SimAccommodation,
  checkIn: string,
  checkOut: string,
  negotiatedRateId: string | null,
): RateDraft[] {
  const base = nightsOf(checkIn, checkOut).reduce((sum, n) => sum + nightlyBase(acc, n), 0);
  const nights = nightsOf(checkIn, checkOut).length;
  const drafts: RateDraft[] = [
    { kind: 'pay_now', base, negotiatedRateId: null },
    { kind: 'pay_at_hotel', base: base - PAY_AT_HOTEL_DISCOUNT * nights, negotiatedRateId: null },
  ];
  if (negotiatedRateId)
    drafts.push({
      kind: 'negotiated',
      base: Math.round(base * (1 - NEGOTIATED_DISCOUNT) * 100) / 100,
      negotiatedRateId,
    });
  return drafts;
}

/** A rate as Duffel sends it: base + tax = total; a pay-at-hotel rate is all due at the accommodation. */
export function buildRate(
  acc: SimAccommodation,
  draft: RateDraft,
  id: string,
  checkIn: string,
  expiresAt: string,
): StaysRoomRate {
  const tax = Math.round(draft.base * acc.tax * 100) / 100;
  const total = cents(draft.base + tax);
  const atHotel = draft.kind === 'pay_at_hotel';
  // Free cancellation until two days before check-in (noon UTC), then nothing back.
  const timeline: StaysRateCancellationTimeline[] = [
    {
      before: new Date(Date.parse(`${checkIn}T12:00:00Z`) - 2 * DAY_MS).toISOString(),
      refund_amount: total,
      currency: acc.currency,
    },
  ];
  return {
    id,
    base_amount: cents(draft.base),
    base_currency: acc.currency,
    tax_amount: cents(tax),
    tax_currency: acc.currency,
    fee_amount: null,
    fee_currency: acc.currency,
    total_amount: total,
    total_currency: acc.currency,
    due_at_accommodation_amount: atHotel ? total : null,
    due_at_accommodation_currency: acc.currency,
    payment_type: atHotel ? 'guarantee' : 'pay_now',
    available_payment_methods: atHotel ? ['card'] : ['balance', 'card'],
    board_type: 'room_only',
    cancellation_timeline: timeline,
    conditions: [],
    supported_loyalty_programme: null,
    loyalty_programme_required: false,
    estimated_commission_amount: null,
    estimated_commission_currency: null,
    source: 'duffel_hotel_group',
    expires_at: expiresAt,
    code: null,
    description: null,
    name: draft.kind === 'negotiated' ? 'Negotiated room only' : atHotel ? 'Room only, pay at hotel' : 'Room only',
    negotiated_rate_id: draft.negotiatedRateId,
    quantity_available: 5,
  };
}
