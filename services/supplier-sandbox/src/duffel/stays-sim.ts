/**
 * The state of the simulation's Duffel Stays, per access token (Duffel keeps it per account and mode): search
 * results, their rates once fetched, quotes, bookings, and the account's negotiated rates. A booking's
 * `reference` (the hotel's confirmation number) is absent at creation and appears on a later read, as
 * Duffel's does when the hotel confirms after the booking.
 */
import type {
  StaysAccommodation,
  StaysBooking,
  StaysNegotiatedRate,
  StaysQuote,
  StaysRoomRate,
  StaysSearchParams,
  StaysSearchResult,
} from '@duffel/api/types';
import type { Duffel } from '@duffel/api';
import { accommodationOf, buildRate, findAccommodation, rateDrafts, type SimAccommodation } from './stays-inventory';
import { DuffelSimError, notFound, validation } from './sim-errors';

type StaysBookingPayload = Parameters<Duffel['stays']['bookings']['create']>[0];

/** Search results and rates stay bookable this long. */
const RESULT_TTL_MS = 30 * 60 * 1000;
const E164 = /^\+[1-9]\d{6,14}$/;

interface SearchEntry {
  result: StaysSearchResult;
  acc: SimAccommodation;
  negotiatedRateIds: string[];
  rates: StaysRoomRate[] | null;
}

interface StaysAccount {
  results: Map<string, SearchEntry>;
  rates: Map<string, { rate: StaysRoomRate; entry: SearchEntry }>;
  quotes: Map<string, { quote: StaysQuote; rate: StaysRoomRate }>;
  bookings: Map<string, { booking: StaysBooking; rate: StaysRoomRate }>;
  negotiated: StaysNegotiatedRate[];
  /** Accommodation with no room left for this account. */
  soldOut: Set<string>;
}

/** What the control API shows of a booking: the booking and the rate it was made at. */
export interface SimStaysBooking {
  booking: StaysBooking;
  rate: Pick<
    StaysRoomRate,
    'id' | 'payment_type' | 'base_amount' | 'total_amount' | 'total_currency' | 'negotiated_rate_id'
  >;
}

export class StaysSim {
  private readonly accounts = new Map<string, StaysAccount>();

  constructor(
    private readonly now: () => number,
    private readonly id: (prefix: string) => string,
  ) {}

  reset(): void {
    this.accounts.clear();
  }

  private account(token: string): StaysAccount {
    let a = this.accounts.get(token);
    if (!a) {
      a = {
        results: new Map(),
        rates: new Map(),
        quotes: new Map(),
        bookings: new Map(),
        negotiated: [],
        soldOut: new Set(),
      };
      this.accounts.set(token, a);
    }
    return a;
  }

  addNegotiatedRate(token: string, rateAccessCode: string, accommodationIds: string[]): StaysNegotiatedRate {
    const rate: StaysNegotiatedRate = {
      id: this.id('nrt'),
      rate_access_code: rateAccessCode,
      display_name: `Crew rate ${rateAccessCode}`,
      live_mode: token.startsWith('duffel_live_'),
      chain_id: null,
      accommodation_ids: accommodationIds,
    };
    this.account(token).negotiated.push(rate);
    return rate;
  }

  negotiatedRates(token: string): StaysNegotiatedRate[] {
    return [...this.account(token).negotiated];
  }

  setSoldOut(token: string, accommodationId: string, soldOut: boolean): void {
    const set = this.account(token).soldOut;
    if (soldOut) set.add(accommodationId);
    else set.delete(accommodationId);
  }

  getAccommodation(id: string): StaysAccommodation {
    const acc = findAccommodation(id);
    if (!acc) throw notFound();
    return accommodationOf(acc);
  }

  /** Search by accommodation id; a sold-out (or unknown) property has no result. Results carry no rooms. */
  search(
    token: string,
    params: StaysSearchParams,
    noAvailability: boolean,
  ): { results: StaysSearchResult[]; created_at: string } {
    if (!('accommodation' in params) || !Array.isArray(params.accommodation?.ids))
      throw validation('accommodation', 'The simulation searches by accommodation ids');
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(params.check_in_date ?? '') ||
      !/^\d{4}-\d{2}-\d{2}$/.test(params.check_out_date ?? '') ||
      params.check_out_date <= params.check_in_date
    ) {
      throw validation('check_out_date', 'check_in_date and a later check_out_date are required');
    }
    if (params.rooms !== 1 || !Array.isArray(params.guests) || params.guests.length !== 1)
      throw validation('guests', 'The simulation takes one room for one guest');
    const account = this.account(token);
    const created = this.now();
    const results: StaysSearchResult[] = [];
    for (const id of params.accommodation.ids) {
      const acc = findAccommodation(id);
      if (!acc || noAvailability || account.soldOut.has(id)) continue;
      const negotiatedRateIds = (params.negotiated_rate_ids ?? []).filter((n) =>
        account.negotiated.some((r) => r.id === n && (r.accommodation_ids ?? []).includes(id)),
      );
      const cheapest = rateDrafts(acc, params.check_in_date, params.check_out_date, negotiatedRateIds[0] ?? null).sort(
        (a, b) => a.base - b.base,
      )[0]!;
      const result: StaysSearchResult = {
        id: this.id('srr'),
        check_in_date: params.check_in_date,
        check_out_date: params.check_out_date,
        accommodation: accommodationOf(acc),
        rooms: 1,
        guests: params.guests,
        cheapest_rate_total_amount: (cheapest.base * (1 + acc.tax)).toFixed(2),
        cheapest_rate_currency: acc.currency,
        cheapest_rate_base_amount: cheapest.base.toFixed(2),
        cheapest_rate_base_currency: acc.currency,
        cheapest_rate_public_amount: null,
        cheapest_rate_public_currency: acc.currency,
        cheapest_rate_due_at_accommodation_amount: null,
        cheapest_rate_due_at_accommodation_currency: null,
        supported_negotiated_rates: account.negotiated
          .filter((r) => negotiatedRateIds.includes(r.id))
          .map((r) => ({ id: r.id, display_name: r.display_name })),
        expires_at: new Date(created + RESULT_TTL_MS).toISOString(),
      };
      account.results.set(result.id, { result, acc, negotiatedRateIds, rates: null });
      results.push(result);
    }
    return { results, created_at: new Date(created).toISOString() };
  }

  /** The result with its one room and every rate (made once: a second fetch answers the same rate ids). */
  fetchAllRates(token: string, resultId: string, noAvailability: boolean): StaysSearchResult {
    const account = this.account(token);
    const entry = account.results.get(resultId);
    if (!entry) throw notFound();
    const { result, acc } = entry;
    if (this.now() >= Date.parse(result.expires_at))
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'search_result_expired',
        'Search result expired',
        'Search again',
      );
    if (!entry.rates) {
      const drafts =
        noAvailability || account.soldOut.has(acc.id)
          ? []
          : rateDrafts(acc, result.check_in_date, result.check_out_date, entry.negotiatedRateIds[0] ?? null);
      entry.rates = drafts.map((d) => buildRate(acc, d, this.id('rat'), result.check_in_date, result.expires_at));
      for (const rate of entry.rates) account.rates.set(rate.id, { rate, entry });
    }
    const rooms =
      entry.rates.length > 0
        ? [{ name: 'Standard King Room', beds: [{ type: 'king' as const, count: 1 }], rates: entry.rates }]
        : [];
    return { ...result, accommodation: accommodationOf(acc, rooms) };
  }

  createQuote(token: string, rateId: string, noAvailability: boolean): StaysQuote {
    const account = this.account(token);
    const held = account.rates.get(rateId);
    if (!held) throw notFound();
    const { rate, entry } = held;
    if (noAvailability || account.soldOut.has(entry.acc.id))
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'rate_unavailable',
        'Rate unavailable',
        'The rate is no longer available',
      );
    const quote: StaysQuote = {
      id: this.id('quo'),
      check_in_date: entry.result.check_in_date,
      check_out_date: entry.result.check_out_date,
      accommodation: accommodationOf(entry.acc),
      total_amount: rate.total_amount,
      total_currency: rate.total_currency,
      base_amount: rate.base_amount,
      base_currency: rate.base_currency,
      fee_amount: rate.fee_amount,
      fee_currency: rate.fee_currency,
      tax_amount: rate.tax_amount,
      tax_currency: rate.tax_currency,
      due_at_accommodation_amount: rate.due_at_accommodation_amount,
      due_at_accommodation_currency: rate.due_at_accommodation_currency,
      deposit_amount: null,
      deposit_currency: rate.total_currency,
      supported_loyalty_programme: null,
      rooms: 1,
      guests: entry.result.guests,
    };
    account.quotes.set(quote.id, { quote, rate });
    return quote;
  }

  getQuote(token: string, quoteId: string): StaysQuote {
    const held = this.account(token).quotes.get(quoteId);
    if (!held) throw notFound();
    return held.quote;
  }

  createBooking(token: string, body: StaysBookingPayload): StaysBooking {
    const account = this.account(token);
    const held = account.quotes.get(body.quote_id);
    if (!held) throw notFound();
    if (
      !Array.isArray(body.guests) ||
      body.guests.length === 0 ||
      body.guests.some((g) => !g.given_name || !g.family_name)
    )
      throw validation('guests', 'Every guest needs a given and family name');
    if (!body.email?.includes('@')) throw validation('email', 'email is required');
    if (!E164.test(body.phone_number ?? ''))
      throw validation('phone_number', 'phone_number must be E.164, e.g. +442080160509');
    const { quote, rate } = held;
    const booking: StaysBooking = {
      id: this.id('bok'),
      email: body.email,
      phone_number: body.phone_number,
      accommodation: quote.accommodation,
      check_in_date: quote.check_in_date,
      check_out_date: quote.check_out_date,
      reference: null,
      status: 'confirmed',
      confirmed_at: new Date(this.now()).toISOString(),
      cancelled_at: null,
      guests: body.guests.map((g) => ({ given_name: g.given_name, family_name: g.family_name })),
      supported_loyalty_programme: null,
      loyalty_programme_account_number: null,
      rooms: 1,
      metadata: body.metadata ?? null,
      key_collection: null,
      estimated_commission_amount: null,
      estimated_commission_currency: null,
    };
    account.quotes.delete(body.quote_id);
    account.bookings.set(booking.id, { booking, rate });
    return structuredClone(booking);
  }

  /** A read after creation finds the hotel's confirmation number. */
  private confirmed(booking: StaysBooking): StaysBooking {
    booking.reference ??= `H${booking.id.slice(-7).toUpperCase()}`;
    return structuredClone(booking);
  }

  getBooking(token: string, id: string): StaysBooking {
    const held = this.account(token).bookings.get(id);
    if (!held) throw notFound();
    return this.confirmed(held.booking);
  }

  listBookings(token: string): StaysBooking[] {
    return [...this.account(token).bookings.values()].map((b) => this.confirmed(b.booking));
  }

  cancelBooking(token: string, id: string): StaysBooking {
    const held = this.account(token).bookings.get(id);
    if (!held) throw notFound();
    if (held.booking.status === 'cancelled')
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'booking_already_cancelled',
        'Booking already cancelled',
        'This booking has already been cancelled',
      );
    held.booking.status = 'cancelled';
    held.booking.cancelled_at = new Date(this.now()).toISOString();
    return this.confirmed(held.booking);
  }

  /** Control API and tests: the account's bookings with the rate each was made at. */
  bookings(token: string): SimStaysBooking[] {
    return [...this.account(token).bookings.values()].map(({ booking, rate }) => ({
      booking: structuredClone(booking),
      rate: {
        id: rate.id,
        payment_type: rate.payment_type,
        base_amount: rate.base_amount,
        total_amount: rate.total_amount,
        total_currency: rate.total_currency,
        negotiated_rate_id: rate.negotiated_rate_id ?? null,
      },
    }));
  }
}
