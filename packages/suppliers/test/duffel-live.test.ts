/**
 * Live smoke test against Duffel's test mode: runs only where DUFFEL_ACCESS_TOKEN holds a `duffel_test_` token
 * (never a live one: it books and cancels), through the same adapters the worker uses. Elsewhere every test
 * here is reported as skipped, with the reason in its name.
 */
import { randomUUID } from 'node:crypto';
import {
  checkDuffelToken,
  createDuffelClient,
  DuffelFlightSupplier,
  DuffelHotelSupplier,
  type FlightTraveller,
} from '../src';

const TOKEN = process.env.DUFFEL_ACCESS_TOKEN ?? '';
const BASE = process.env.DUFFEL_API_URL || 'https://api.duffel.com';
const live = TOKEN.startsWith('duffel_test_');
const suite = live ? describe : describe.skip;
const why = live ? '' : ' (skipped: set DUFFEL_ACCESS_TOKEN=duffel_test_… to run against Duffel’s test mode)';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const traveller: FlightTraveller = {
  email: 'crew.smoke@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1985-04-12',
  title: 'ms',
  gender: 'f',
  phone_number: '+442071234567',
};

suite(`Duffel test mode, live${why}`, () => {
  jest.setTimeout(120_000);
  const client = () => createDuffelClient({ token: TOKEN, basePath: BASE });

  it('accepts the token as a test token', async () => {
    expect(await checkDuffelToken(BASE, TOKEN)).toEqual({ live_mode: false });
  });

  it('searches, orders, refreshes and cancels a flight', async () => {
    const flights = new DuffelFlightSupplier(client(), { liveMode: false, timeoutMs: 60_000 });
    const offers = await flights.searchFlights({
      from_airport: 'LHR',
      to_airport: 'JFK',
      date: inDays(45),
      cabin: 'ECONOMY',
    });
    expect(offers.length).toBeGreaterThan(0);
    const reference = `smoke-${randomUUID()}`;
    const order = await flights.bookFlight({
      reference,
      flight_option_id: offers[0]!.flight_option_id,
      traveller,
      booker_email: 'booker@example.com',
    });
    expect(order).toMatchObject({ status: 'CONFIRMED', supplier: 'DUFFEL', live_mode: false });
    expect((await flights.findOrder(reference, { traveller, date: inDays(45) }))?.supplier_ref).toBe(
      order.supplier_ref,
    );
    expect((await flights.getOrder(order.supplier_ref))?.pnr).toBeTruthy();
    expect(
      (await flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: `${reference}-cancel` })).status,
    ).toBe('CANCELLED');
  });

  it('books and cancels a stay at an accommodation near LHR', async () => {
    const duffel = client();
    const found = await duffel.stays.search({
      check_in_date: inDays(40),
      check_out_date: inDays(41),
      rooms: 1,
      guests: [{ type: 'adult' }],
      location: { radius: 5, geographic_coordinates: { latitude: 51.47, longitude: -0.4543 } },
    });
    const accommodation = found.data.results[0]?.accommodation.id;
    expect(accommodation).toBeTruthy();
    const stays = new DuffelHotelSupplier(duffel, { liveMode: false, timeoutMs: 60_000 });
    const reservation = await stays.bookHotel({
      reference: `smoke-${randomUUID()}`,
      property_id: accommodation!,
      check_in_date: inDays(40),
      check_out_date: inDays(41),
      traveller: { email: traveller.email, name: 'Ada Lovelace' },
      booker_email: 'booker@example.com',
      phone_number: traveller.phone_number!,
    });
    expect(reservation).toMatchObject({ status: 'CONFIRMED', supplier: 'DUFFEL', live_mode: false });
    expect(
      (
        await stays.cancelHotel({
          supplier_ref: reservation.supplier_ref,
          reference: `${reservation.reference}-cancel`,
        })
      ).status,
    ).toBe('CANCELLED');
  });
});
