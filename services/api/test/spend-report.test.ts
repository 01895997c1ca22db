import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';
import { ConsoleClient, consoleUserWithPassword } from './console-client';

/** GET /crew/reports/spend and its CSV: the airline's stays and flights, summed per station, hotel or month. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('spend_report', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const MARCH = 'from=2027-03-01&to=2027-03-31';

let n = 0;
async function airline() {
  n++;
  const t = await onboard(stack, {
    name: `Spend Air ${n}`,
    carrier: `S${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, deadhead_auto_booking: true },
  });
  const email = `crew${n}@spend.test`;
  await bookingAccount(stack, t, email);
  await contractStations(stack, t, ['JFK']);
  return { t, email };
}

interface Money {
  amount: number;
  currency: string;
}

/** One airline whose roster booked its JFK layover and its LHR → JFK deadhead (the sandbox prices both). */
async function booked() {
  const { t, email } = await airline();
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const items = await allActionItems(stack, t.accessToken, res.body.schedule_id);
  const booking = async (type: string) =>
    (await api(t, `/crew/bookings/${items.find((i) => i.type === type)!.booking_id}`)).body;
  const hotel = await booking('HOTEL');
  const flight = await booking('FLIGHT');
  expect(hotel.status).toBe('CONFIRMED');
  expect(flight.status).toBe('CONFIRMED');
  return { t, hotel, flight };
}

describe('the spend report', () => {
  let airlineA: Awaited<ReturnType<typeof booked>>;
  beforeAll(async () => {
    airlineA = await booked();
  });

  it('sums the live stays by station of the stay and the flights by departure airport, in USD by default', async () => {
    const { t, hotel, flight } = airlineA;
    const stay = hotel.hotel.total_price as Money;
    const fare = flight.flight.price as Money;
    expect([stay.currency, fare.currency]).toEqual(['USD', 'USD']);
    const res = await api(t, `/crew/reports/spend?${MARCH}`);
    expect(res.status).toBe(200);
    const zero = { amount: 0, currency: 'USD' };
    expect(res.body).toEqual({
      from: '2027-03-01',
      to: '2027-03-31',
      group_by: 'station',
      currency: 'USD',
      unconverted: [],
      groups: [
        {
          key: 'JFK',
          hotels_booked: stay,
          flights_booked: zero,
          penalties_paid: zero,
          penalties_avoided: zero,
          disputed: zero,
        },
        {
          key: 'LHR',
          hotels_booked: zero,
          flights_booked: fare,
          penalties_paid: zero,
          penalties_avoided: zero,
          disputed: zero,
        },
      ],
    });
  });

  it('groups by hotel (flights in one FLIGHTS group) and by month; a period without stays is empty', async () => {
    const { t, hotel } = airlineA;
    const byHotel = await api(t, `/crew/reports/spend?${MARCH}&group_by=hotel`);
    expect(byHotel.body.groups.map((g: { key: string }) => g.key)).toEqual(
      ['FLIGHTS', hotel.hotel.property_id as string].sort(),
    );
    const byMonth = await api(t, `/crew/reports/spend?${MARCH}&group_by=month`);
    expect(byMonth.body.groups.map((g: { key: string }) => g.key)).toEqual(['2027-03']);
    const april = await api(t, '/crew/reports/spend?from=2027-04-01&to=2027-04-30');
    expect(april.body.groups).toEqual([]);
  });

  it('converts into the asked currency at the rate of each amount’s date', async () => {
    const { t, hotel } = airlineA;
    const ops = (body: unknown) =>
      http(`${stack.apiUrl}/ops/v1/fx-rates/EUR`, { method: 'PUT', token: stack.opsToken, body });
    expect((await ops({ rate: 1.25, as_of: '2027-01-01' })).status).toBeLessThan(300);
    const res = await api(t, `/crew/reports/spend?${MARCH}&currency=EUR`);
    const jfk = res.body.groups.find((g: { key: string }) => g.key === 'JFK');
    const usd = (hotel.hotel.total_price as Money).amount;
    expect(jfk.hotels_booked).toEqual({ amount: Math.round((usd / 1.25) * 100) / 100, currency: 'EUR' });
    const noRate = await api(t, `/crew/reports/spend?${MARCH}&currency=CHF`);
    expect(noRate.body.groups).toEqual([]);
    expect(noRate.body.unconverted).toEqual([{ currency: 'USD', entries: 2 }]);
  });

  it('as CSV: one row per group, amounts in the report’s currency', async () => {
    const { t, hotel, flight } = airlineA;
    const res = await fetch(`${stack.apiUrl}/api/v1/crew/reports/spend.csv?${MARCH}`, {
      headers: { authorization: `Bearer ${t.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await res.text()).split('\r\n')).toEqual([
      'key,currency,hotels_booked,flights_booked,penalties_paid,penalties_avoided,disputed',
      `JFK,USD,${(hotel.hotel.total_price as Money).amount},0,0,0,0`,
      `LHR,USD,0,${(flight.flight.price as Money).amount},0,0,0`,
      '',
    ]);
  });

  it('refuses a period that ends before it starts (422 naming to) and an unknown grouping (400); nothing of another airline', async () => {
    const { t } = airlineA;
    const backwards = await api(t, '/crew/reports/spend?from=2027-03-31&to=2027-03-01');
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.details).toEqual([expect.objectContaining({ field: 'to' })]);
    const grouping = await api(t, `/crew/reports/spend?${MARCH}&group_by=crew`);
    expect(grouping.status).toBe(400);
    expect((await api(t, '/crew/reports/spend?from=2027-03-01')).status).toBe(400);
    const other = await airline();
    const res = await api(other.t, `/crew/reports/spend?${MARCH}`);
    expect(res.body.groups).toEqual([]);
  });

  it('counts what a reconciled hotel invoice disputes at the stay’s station, by the billed check-in', async () => {
    const { t } = await booked();
    const posted = await api(t, '/crew/invoices', {
      method: 'POST',
      body: {
        invoice_number: 'INV-SPEND-1',
        property_id: 'GDS-JFK-001',
        currency: 'USD',
        lines: [
          {
            line_number: 1,
            employee_id: 'E-NOBODY',
            check_in_date: '2027-03-10',
            check_out_date: '2027-03-11',
            nights: 1,
            nightly_rate: { amount: 180, currency: 'USD' },
            taxes: { amount: 20, currency: 'USD' },
          },
        ],
      },
    });
    expect(posted.status).toBe(202);
    await waitFor(
      async () => (await api(t, `/crew/invoices/${posted.body.invoice_id}`)).body.status === 'RECONCILED',
      20_000,
      'the invoice to be reconciled',
    );
    const res = await api(t, `/crew/reports/spend?${MARCH}`);
    const jfk = res.body.groups.find((g: { key: string }) => g.key === 'JFK');
    expect(jfk.disputed).toEqual({ amount: 200, currency: 'USD' });
  });

  it('is charted in the console: the same amounts in a table, a bar per group, the period chosen in a form', async () => {
    const { t, hotel } = airlineA;
    const email = 'viewer@spend.test';
    await consoleUserWithPassword(stack, t, email, 'correct horse battery staple', 'VIEWER');
    const browser = new ConsoleClient(stack.apiUrl);
    expect((await browser.signIn(email, 'correct horse battery staple')).status).toBe(303);
    const page = await browser.get('/console/spend?from=2027-03-01&to=2027-03-31');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Spend</h1>');
    expect(page.text).toContain('<label for="s-from">From</label>');
    expect(page.text).toContain('<th scope="row">JFK</th>');
    const stay = (hotel.hotel.total_price as Money).amount.toLocaleString('en-GB', { minimumFractionDigits: 2 });
    expect(page.text).toContain(`<td class="num">${stay}</td>`);
    expect(page.text).toContain('<svg class="bar"');
    expect(page.text).not.toMatch(/style=/);
    const backwards = await browser.get('/console/spend?from=2027-03-31&to=2027-03-01');
    expect(backwards.status).toBe(422);
    expect(backwards.text).toContain('role="alert"');
  });
});
