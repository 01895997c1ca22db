/**
 * Duffel Stays paths of the simulation's Duffel dialect (`/duffel/stays/…`, as `@duffel/api`'s Stays client
 * calls them), under the same tokens and faults as Air; and their control routes (negotiated rates, sold-out
 * properties, the bookings made).
 */
import type { Request, Response, Router } from 'express';
import type {
  Places,
  StaysAccommodation,
  StaysBooking,
  StaysQuote,
  StaysSearchParams,
  StaysSearchResult,
} from '@duffel/api/types';
import { AIRPORTS } from '../airports';
import type { DuffelOp } from './operation';
import { validation } from './sim-errors';
import { one, page } from './envelope';
import type { StaysSim } from './stays-sim';
import { accommodationNear, accommodationOf } from './stays-inventory';

const bodyOf = <T>(req: Request): Partial<T> => (req.body as { data?: Partial<T> } | undefined)?.data ?? {};

export function staysRoutes(router: Router, op: DuffelOp, stays: StaysSim): void {
  router.get(
    '/stays/accommodation',
    op('stays.accommodation.list', (req) => {
      const [latitude, longitude] = [Number(req.query.latitude), Number(req.query.longitude)];
      if (
        req.query.latitude === undefined ||
        req.query.longitude === undefined ||
        !Number.isFinite(latitude) ||
        !Number.isFinite(longitude)
      ) {
        throw validation('latitude', 'latitude and longitude are required');
      }
      // Duffel's radius is in kilometres; its default is a short ride.
      const radius = req.query.radius === undefined ? 5 : Number(req.query.radius);
      if (!Number.isFinite(radius) || radius <= 0 || radius > 100)
        throw validation('radius', 'radius must be between 0 and 100 km');
      return {
        status: 200,
        body: page<StaysAccommodation>(
          accommodationNear(latitude, longitude, radius).map((a) => accommodationOf(a)),
          req.query,
        ),
      };
    }),
  );
  router.get(
    '/places/suggestions',
    op('places.suggestions', (req) => {
      const raw = req.query.name ?? req.query.query;
      if (typeof raw !== 'string' || raw.trim().length === 0) throw validation('name', 'name is required');
      return { status: 200, body: one<Places[]>(placesMatching(raw.trim())) };
    }),
  );
  router.get(
    '/stays/accommodation/:id',
    op('stays.accommodation.get', (req) => ({
      status: 200,
      body: one<StaysAccommodation>(stays.getAccommodation(String(req.params.id))),
    })),
  );
  router.post(
    '/stays/search',
    op('stays.search', (req, token, fault) => ({
      status: 200,
      body: one(
        stays.search(token, bodyOf<StaysSearchParams>(req) as StaysSearchParams, fault?.outcome === 'no_availability'),
      ),
    })),
  );
  router.post(
    '/stays/search_results/:id/actions/fetch_all_rates',
    op('stays.fetch_all_rates', (req, token, fault) => ({
      status: 200,
      body: one<StaysSearchResult>(
        stays.fetchAllRates(token, String(req.params.id), fault?.outcome === 'no_availability'),
      ),
    })),
  );
  router.post(
    '/stays/quotes',
    op('stays.quotes.create', (req, token, fault) => {
      const rateId = bodyOf<{ rate_id: string }>(req).rate_id;
      if (typeof rateId !== 'string') throw validation('rate_id', 'rate_id is required');
      return {
        status: 201,
        body: one<StaysQuote>(stays.createQuote(token, rateId, fault?.outcome === 'no_availability')),
      };
    }),
  );
  router.post(
    '/stays/bookings',
    op('stays.bookings.create', (req, token) => ({
      status: 201,
      body: one<StaysBooking>(stays.createBooking(token, bodyOf(req) as Parameters<StaysSim['createBooking']>[1])),
    })),
  );
  router.get(
    '/stays/bookings',
    op('stays.bookings.list', (req, token) => ({
      status: 200,
      body: page<StaysBooking>(stays.listBookings(token), req.query),
    })),
  );
  router.get(
    '/stays/bookings/:id',
    op('stays.bookings.get', (req, token) => ({
      status: 200,
      body: one<StaysBooking>(stays.getBooking(token, String(req.params.id))),
    })),
  );
  router.post(
    '/stays/bookings/:id/actions/cancel',
    op('stays.bookings.cancel', (req, token) => ({
      status: 200,
      body: one<StaysBooking>(stays.cancelBooking(token, String(req.params.id))),
    })),
  );
  router.get(
    '/stays/negotiated_rates',
    op('stays.search', (req, token) => ({ status: 200, body: page(stays.negotiatedRates(token), req.query) })),
  );
}

/** Airports of the sandbox's table as Duffel's Places: the IATA code itself first, then names and cities that contain the text. */
function placesMatching(text: string): Places[] {
  const t = text.toLowerCase();
  const exact = AIRPORTS.filter((a) => a.code.toLowerCase() === t);
  const partial = AIRPORTS.filter((a) => a.code.toLowerCase() !== t && a.city.toLowerCase().includes(t));
  return [...exact, ...partial].slice(0, 20).map((a) => ({
    type: 'airport',
    id: `arp_${a.code.toLowerCase()}_${a.country.toLowerCase()}`,
    name: `${a.city} ${a.code} Airport`,
    iata_code: a.code,
    icao_code: null,
    iata_city_code: null,
    iata_country_code: a.country,
    city_name: a.city,
    country_name: null,
    time_zone: a.timezone,
    latitude: a.lat,
    longitude: a.lon,
    city: null,
    airports: null,
  }));
}

export function staysControlRoutes(
  router: Router,
  stays: StaysSim,
  bad: (res: Response, issue: string) => unknown,
): void {
  router.post('/stays/negotiated-rates', (req, res) => {
    const { token, rate_access_code: code, accommodation_ids: ids } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof token !== 'string' || typeof code !== 'string' || !Array.isArray(ids))
      return bad(res, 'token, rate_access_code and accommodation_ids are required');
    return res.status(201).json(stays.addNegotiatedRate(token, code, ids.map(String)));
  });
  router.post('/stays/sold-out', (req, res) => {
    const { token, accommodation_id: id, sold_out: soldOut } = (req.body ?? {}) as Record<string, unknown>;
    if (typeof token !== 'string' || typeof id !== 'string') return bad(res, 'token and accommodation_id are required');
    stays.setSoldOut(token, id, soldOut !== false);
    return res.status(204).end();
  });
  router.get('/stays/bookings', (req, res) => {
    if (typeof req.query.token !== 'string') return bad(res, 'token is required');
    return res.json({ bookings: stays.bookings(req.query.token) });
  });
}
