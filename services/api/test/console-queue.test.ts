/**
 * The console's review pages over HTTP against the real stack: the queue, an item, acting on it, the coverage
 * board. A VIEWER reads and cannot act; another airline's item is not found; outside text (a crew name from
 * the roster) is escaped on every page.
 */
import { createServer } from 'node:http';
import express from 'express';
import { sql } from '@crew/db';
import { listen } from '@crew/platform';
import { createSandboxSuppliers, SupplierError, SupplierErrorCode, type DuffelChanges } from '@crew/suppliers';
import {
  apiDepsOf,
  CHEAP_PASSWORD_HASH_COST,
  http,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
} from '@crew/test-support';
import { consoleRouter } from '../src/console/console.router';
import { consoleDeps } from '../src/console/context';
import { ConsoleClient, consoleUserWithPassword, csrfOf } from './console-client';
import { DAY1, reviewAirline, type ReviewAirline } from './console-review-stack';

jest.setTimeout(60_000);

const PASSWORD = 'a password long enough';
const NAME = '<script>alert("x")</script> Ada & Co';
let stack: Stack;
let n = 0;

beforeAll(async () => {
  // The real clock: a person's action is stamped with it, and so are the roster's dispositions.
  // Each test signs a person in: a cheap password hash, the queue's pages are the subject.
  stack = await startStack('console-queue', { worker: true, passwordHashCost: CHEAP_PASSWORD_HASH_COST });
});
afterAll(() => stack.close());
const fault = (body: Record<string, unknown>) => http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body });
const clearFaults = () => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' });
afterEach(clearFaults);

async function signedIn(t: Tenant, role: 'AGENT' | 'VIEWER'): Promise<{ browser: ConsoleClient; email: string }> {
  const email = `${role.toLowerCase()}${++n}@desk.test`;
  await consoleUserWithPassword(stack, t, email, PASSWORD, role);
  const browser = new ConsoleClient(stack.apiUrl);
  expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
  return { browser, email };
}

let a: ReviewAirline;
let b: ReviewAirline;
beforeAll(async () => {
  a = await reviewAirline(stack, { name: 'Queue Air A', carrier: 'QA', crewName: NAME });
  b = await reviewAirline(stack, { name: 'Queue Air B', carrier: 'QB', crewName: NAME });
  expect(a.flight).toMatchObject({ recommended_action: 'BOOK_MANUALLY', review_status: 'OPEN' });
  expect(a.hotel).toMatchObject({ disposition: 'PENDING_REVIEW', review_status: 'OPEN' });
});

describe('the review queue', () => {
  it('lists the open items soonest first, each with its time left in words, filterable, the crew name escaped', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    const page = await browser.get('/console');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Review queue</h1>');
    expect(page.text).toContain(`href="/console/items/${a.flight.action_id}"`);
    expect(page.text).toContain(`href="/console/items/${a.hotel.action_id}"`);
    // The deadhead departs first, so it is due first.
    expect(page.text.indexOf(a.flight.action_id)).toBeLessThan(page.text.indexOf(a.hotel.action_id));
    expect(page.text).toMatch(/class="badge (overdue|soon|later)">(Overdue|Due soon|Later)</);
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Ada &amp; Co');
    // Filters: labelled controls in a GET form with a Filter button.
    for (const [id, label] of [
      ['f-station', 'Station'],
      ['f-type', 'Type'],
      ['f-priority', 'Priority'],
      ['f-assignee', 'Assignee'],
    ])
      expect(page.text).toContain(`<label for="${id}">${label}</label>`);
    expect(page.text).toContain('<button type="submit">Filter</button>');

    const hotels = await browser.get('/console?type=HOTEL&station=jfk');
    expect(hotels.text).toContain(a.hotel.action_id);
    expect(hotels.text).not.toContain(a.flight.action_id);
    const elsewhere = await browser.get('/console?station=CDG&type=HOTEL');
    expect(elsewhere.text).not.toContain(a.hotel.action_id);
    expect(elsewhere.text).toContain('No action items match these filters.');
    const bad = await browser.get('/console?station=J%3CK');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Station must be a three-letter airport code');
    // Another airline's items are never listed.
    expect(page.text).not.toContain(b.flight.action_id);
  });

  it('pages with a Next page link carrying the cursor and the filters', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    const first = await browser.get('/console?limit=1&station=JFK');
    const ids = (text: string) => [...text.matchAll(/href="\/console\/items\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(ids(first.text)).toEqual([a.flight.action_id]);
    const next = /<a href="([^"]+)">Next page<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(next).toMatch(/^\/console\?review_status=OPEN&station=JFK&limit=1&cursor=/);
    const second = await browser.get(next);
    expect(ids(second.text)).toEqual([a.hotel.action_id]);
    const stale = await browser.get('/console?cursor=not-a-cursor');
    expect(stale.status).toBe(400);
    expect(stale.text).toContain('This page link is out of date');
  });

  it('a filter value the queue does not know is 400 with an alert naming the filter, and no list', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    for (const [query, named] of [
      ['priority=p1', 'Priority'],
      ['review_status=bogus', 'Status'],
      ['type=TRAIN', 'Type'],
      ['limit=0', 'Per page'],
      ['limit=201', 'Per page'],
      ['limit=abc', 'Per page'],
      ['station=J%3CK', 'Station'],
      ['assignee=nobody', 'Assignee'],
    ] as const) {
      const page = await browser.get(`/console?${query}`);
      const alert = /<div class="error" role="alert"><p>([^<]*)<\/p><\/div>/.exec(page.text)?.[1] ?? '';
      expect([query, page.status, alert.startsWith(named)]).toEqual([query, 400, true]);
      expect([query, page.text.includes('<table')]).toEqual([query, false]);
      expect(page.text).not.toContain(a.flight.action_id);
      // The form is still there to correct the filters.
      expect(page.text).toContain('<button type="submit">Filter</button>');
    }
    // Two wrong filters: both named.
    const both = await browser.get('/console?priority=urgent&type=bus');
    expect(both.status).toBe(400);
    expect(both.text).toMatch(/role="alert"><p>Type [^<]*Priority [^<]*<\/p>/);
    // Allowed values, blank ones and a limit within 1..200 still list.
    for (const query of ['priority=P1&type=HOTEL', 'review_status=RESOLVED', 'priority=&type=', 'limit=200'])
      expect([query, (await browser.get(`/console?${query}`)).status]).toEqual([query, 200]);
  });
});

describe('an action item', () => {
  it('shows its context: crew member, pairing, rostered and booked flight, why, history, the live options', async () => {
    const { browser } = await signedIn(a.t, 'AGENT');
    const page = await browser.get(`/console/items/${a.flight.action_id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Deadhead LHR → JFK</h1>');
    expect(page.text).toContain('Rostered flight');
    expect(page.text).toContain('Booked flight');
    expect(page.text).toContain('BA117');
    expect(page.text).toContain('P100');
    expect(page.text).toContain('E1 &lt;script&gt;');
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('Booking history');
    expect(page.text).toContain('NEEDS_REVIEW');
    expect(page.text).toMatch(/<button type="submit" aria-describedby="opt-0">Book<\/button>/);
    expect(page.text).toContain('name="action" value="BOOK_FLIGHT_OPTION"');
    expect(page.text).toContain('<label for="act-dismiss-reason">Reason</label>');
    expect(page.text).toContain('Assign to me');
  });

  it('a deadhead whose options search finds none: the page offers no flight to book and says why; the API, which searches nothing, still lists it', async () => {
    const e = await reviewAirline(stack, { name: 'Queue Air E', carrier: 'QE' });
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: e.t.accessToken, ...init });
    // Every carrier flying the leg blacklisted: the search the page makes finds nothing the airline could book.
    const found = await api(`/crew/flight-options?action_id=${e.flight.action_id}&limit=200`);
    expect(found.body.options.length).toBeGreaterThan(0);
    const carriers = [...new Set(found.body.options.map((o: { airline_code: string }) => o.airline_code))];
    expect(
      (await api('/crew/config/flights', { method: 'PUT', body: { blacklisted_airlines: carriers } })).status,
    ).toBe(200);
    expect((await api(`/crew/flight-options?action_id=${e.flight.action_id}`)).body.options).toEqual([]);

    const { browser } = await signedIn(e.t, 'AGENT');
    const page = await browser.get(`/console/items/${e.flight.action_id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="act-book-flight"');
    expect(page.text).toContain('No live flight options were found for this leg, so booking a flight is not offered.');
    expect(page.text).toContain('name="action" value="RECORD_PNR"');
    // Over the API the item is read without a search: BOOK_FLIGHT_OPTION stays listed (docs/review-queue.md).
    expect((await api(`/crew/action-items/${e.flight.action_id}`)).body.available_actions).toContain(
      'BOOK_FLIGHT_OPTION',
    );
  });

  it('an injected deadhead held for a person: the search takes its route and date from its flight block; an item stored without them (404) is the item page saying why, not a 500', async () => {
    const f = await reviewAirline(stack, { name: 'Queue Air F', carrier: 'QF' });
    const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1${path}`, { token: f.t.accessToken, ...init });
    // Every carrier flying the leg blacklisted: the engine finds no flight to book, so the injected leg waits for a person.
    const found = await api(`/crew/flight-options?action_id=${f.flight.action_id}&limit=200`);
    const carriers = [...new Set(found.body.options.map((o: { airline_code: string }) => o.airline_code))];
    expect(
      (await api('/crew/config/flights', { method: 'PUT', body: { blacklisted_airlines: carriers } })).status,
    ).toBe(200);
    const later = new Date(Date.parse(DAY1) + 2 * 86_400_000).toISOString().slice(0, 10);
    const injected = await api('/crew/action-items', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'IROP_NEW_DEADHEAD',
        source: 'IROP',
        irop_ref: 'IROP-F-1',
        anchors: { traveller_email: 'crew.qf@review.test', employee_id: 'E1', pairing_number: 'P900' },
        flight: { from_airport: 'LHR', to_airport: 'JFK', depart_date: later },
      },
    });
    expect(injected.status).toBe(202);
    await settledBooking(stack, f.t.accessToken, injected.body.booking_id);
    const item = (await api(`/crew/action-items/${injected.body.action_id}`)).body;
    expect(item.available_actions).toContain('BOOK_FLIGHT_OPTION');
    // The search pre-fills the route and date of the injected flight block (every carrier on it blacklisted: none).
    const prefilled = await api(`/crew/flight-options?action_id=${item.action_id}`);
    expect(prefilled.status).toBe(200);
    expect(prefilled.body.options).toEqual([]);
    // An item stored without a route (as no writer today leaves one): the API's search has nothing to pre-fill, 404.
    await stack.database.db
      .updateTable('action_items')
      .set({ details: sql`'{}'::json` })
      .where('action_id', '=', item.action_id)
      .execute();
    expect((await api(`/crew/flight-options?action_id=${item.action_id}`)).status).toBe(404);

    const { browser } = await signedIn(f.t, 'AGENT');
    const page = await browser.get(`/console/items/${item.action_id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Something went wrong');
    expect(page.text).toContain(
      '<p role="status">Flight options cannot be searched for this item: it does not give the route and date a search needs.</p>',
    );
    expect(page.text).toContain('name="action" value="RECORD_PNR"');
    expect(page.text).toContain('Assign to me');
  });

  /**
   * The deadhead's item page as an agent sees it, through a console whose supplier answers at `suppliersUrl`
   * (its deadline shortened: a search unanswered is given up within seconds, its retries included).
   */
  async function deadheadPage(suppliersUrl: string) {
    const suppliers = createSandboxSuppliers({ baseUrl: suppliersUrl, responseTimeoutMs: 1000 });
    // The page waits out the supplier's deadline here (its own shorter one is the next test's).
    const config = { ...stack.config, consoleFlightOptionsTimeoutMs: 30_000 };
    const deps = consoleDeps(apiDepsOf(stack, { suppliers, config }));
    const app = express();
    app.use(consoleRouter(deps));
    const server = createServer(app);
    const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    try {
      const { browser } = await signedIn(a.t, 'AGENT');
      const there = new ConsoleClient(url);
      there.cookies.set('console_session', browser.cookies.get('console_session')!);
      return await there.get(`/console/items/${a.flight.action_id}`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  it.each(['error', 'timeout', 'unreachable'] as const)(
    'the flight supplier unavailable (%s) while the page searches the options: the item page still, saying they cannot be shown',
    async (outcome) => {
      if (outcome !== 'unreachable') await fault({ operation: 'flight.search', outcome, count: 5 });
      // Nothing listens on port 1: the connection is refused.
      const page = await deadheadPage(outcome === 'unreachable' ? 'http://127.0.0.1:1' : stack.sandboxUrl);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h1>Deadhead LHR → JFK</h1>');
      expect(page.text).toContain(
        '<p role="status">Flight options cannot be shown: the flight supplier cannot be reached; reload the page shortly to search again.</p>',
      );
      expect(page.text).toContain('Booking history');
      expect(page.text).not.toContain('Something went wrong');
      // Not a 503 page: the item's context and its other actions stay at hand, and the options are back with the supplier.
      expect(page.text).toContain('name="action" value="RECORD_PNR"');
      expect(page.text).toContain('Assign to me');
      await clearFaults();
      const again = await deadheadPage(stack.sandboxUrl);
      expect(again.text).toMatch(/<button type="submit" aria-describedby="opt-0">Book<\/button>/);
    },
  );

  it('a deadhead whose leg has passed: the options search refuses the date, and the page says so in one sentence', async () => {
    const g = await reviewAirline(stack, { name: 'Queue Air G', carrier: 'QG' });
    // An item left open past its leg (overdue): its duty date is in the past for the search.
    await stack.database.db
      .updateTable('action_items')
      .set({ anchors: sql`(anchors::jsonb || '{"duty_date":"2020-01-06"}'::jsonb)::json` })
      .where('action_id', '=', g.flight.action_id)
      .execute();
    const { browser } = await signedIn(g.t, 'AGENT');
    const page = await browser.get(`/console/items/${g.flight.action_id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<p role="status">Flight options cannot be shown: the date is in the past.</p>');
  });

  it('a flight supplier that does not answer holds the item page only for the console’s own search deadline, not the supplier’s retries', async () => {
    // The stack's api searches with the production defaults: 5 s an attempt, two retries (about 15 s in all).
    await fault({ operation: 'flight.search', outcome: 'timeout', count: 5 });
    const { browser } = await signedIn(a.t, 'AGENT');
    const started = Date.now();
    const page = await browser.get(`/console/items/${a.flight.action_id}`);
    const took = Date.now() - started;
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Deadhead LHR → JFK</h1>');
    expect(page.text).toContain(
      '<p role="status">Flight options cannot be shown: the flight supplier did not answer in time; reload the page to search again.</p>',
    );
    expect(page.text).toContain('name="action" value="RECORD_PNR"');
    // CONSOLE_FLIGHT_OPTIONS_TIMEOUT_MS (4 s) and the page's own reads; generous for a slow machine, well under 15 s.
    expect(took).toBeLessThan(9_000);
    expect(took).toBeGreaterThanOrEqual(stack.config.consoleFlightOptionsTimeoutMs - 100);
  });

  it('the API’s options search keeps the supplier’s own deadline and retries: one attempt unanswered, then options', async () => {
    await fault({ operation: 'flight.search', outcome: 'timeout', count: 1 });
    const started = Date.now();
    const res = await http(`${stack.apiUrl}/api/v1/crew/flight-options?action_id=${a.flight.action_id}`, {
      token: a.t.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.options.length).toBeGreaterThan(0);
    // The first attempt waited out its 5 s before the retry answered.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  });

  it('?done= names an action for its notice; any other name, an inherited one included, shows none', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    const path = `/console/items/${a.flight.action_id}`;
    expect((await browser.get(`${path}?done=RETRY`)).text).toContain('Retry: done.');
    for (const done of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'NOT_AN_ACTION']) {
      const page = await browser.get(`${path}?done=${done}`);
      expect([done, page.status]).toEqual([done, 200]);
      expect([done, page.text.includes(': done.'), page.text.includes('[native code]')]).toEqual([done, false, false]);
    }
  });

  it('a VIEWER sees no action forms, and a POST from a VIEWER is 403', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    const page = await browser.get(`/console/items/${a.hotel.action_id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="action"');
    expect(page.text).toContain('only lets you read');
    const post = await browser.post(`/console/items/${a.hotel.action_id}/actions`, {
      csrf_token: csrfOf(page.text),
      action: 'DISMISS',
      reason: 'viewer tries',
    });
    expect(post.status).toBe(403);
    const item = await http(`${stack.apiUrl}/api/v1/crew/action-items?review_status=OPEN&type=HOTEL`, {
      token: a.t.accessToken,
    });
    expect(item.body.action_items.map((i: any) => i.action_id)).toContain(a.hotel.action_id);
  });

  it('another airline’s item is 404, to read and to act on', async () => {
    const { browser } = await signedIn(a.t, 'AGENT');
    const own = await browser.get(`/console/items/${a.hotel.action_id}`);
    const other = await browser.get(`/console/items/${b.hotel.action_id}`);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain(b.hotel.action_id);
    const post = await browser.post(`/console/items/${b.hotel.action_id}/actions`, {
      csrf_token: csrfOf(own.text),
      action: 'DISMISS',
      reason: 'not ours',
    });
    expect(post.status).toBe(404);
    expect((await browser.get('/console/items/not-an-id')).status).toBe(404);
  });

  it('an agent assigns and dismisses: 303 back to the item with the outcome; acting again is 409 with a clear message', async () => {
    const { browser, email } = await signedIn(b.t, 'AGENT');
    const path = `/console/items/${b.hotel.action_id}`;
    const page = await browser.get(path);
    const csrf = csrfOf(page.text);
    const assign = await browser.post(`${path}/actions`, { csrf_token: csrf, action: 'ASSIGN', assignee: email });
    expect(assign.status).toBe(303);
    expect(assign.location).toBe(`${path}?done=ASSIGN`);
    expect((await browser.get(assign.location!)).text).toContain('The item is assigned to you.');

    const dismiss = await browser.post(`${path}/actions`, {
      csrf_token: csrf,
      action: 'DISMISS',
      reason: 'Crew <b>stays</b> with family',
    });
    expect(dismiss.status).toBe(303);
    const after = await browser.get(dismiss.location!);
    expect(after.text).toContain('role="status"');
    expect(after.text).toContain('Dismissed');
    expect(after.text).toContain(`Dismiss by ${email}`);
    expect(after.text).toContain('Crew &lt;b&gt;stays&lt;/b&gt; with family');
    expect(after.text).not.toContain('name="action"');

    const again = await browser.post(`${path}/actions`, { csrf_token: csrf, action: 'DISMISS', reason: 'twice' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('someone else acted on this item first');
    expect(again.text).toContain('role="alert"');

    const api = await http(`${stack.apiUrl}/api/v1/crew/action-items?review_status=DISMISSED`, {
      token: b.t.accessToken,
    });
    expect(api.body.action_items.find((i: any) => i.action_id === b.hotel.action_id)).toMatchObject({
      review_status: 'DISMISSED',
      action_taken: 'DISMISS',
      action_taken_by: email,
      action_reason: 'Crew <b>stays</b> with family',
      assignee: email,
    });
  });

  it('a missing input is 422 on the item page, nothing done', async () => {
    const { browser } = await signedIn(b.t, 'AGENT');
    const path = `/console/items/${b.flight.action_id}`;
    const page = await browser.get(path);
    const res = await browser.post(`${path}/actions`, { csrf_token: csrfOf(page.text), action: 'BOOK_FLIGHT_OPTION' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('The action was not taken');
    const none = await browser.post(`${path}/actions`, { csrf_token: csrfOf(page.text), action: 'FLY_AWAY' });
    expect(none.status).toBe(422);
  });
});

describe('recording a seat the airline booked itself', () => {
  it('RECORD_PNR: a PNR that is no record locator is 422; a good one confirms the booking with it', async () => {
    const { browser } = await signedIn(b.t, 'AGENT');
    const path = `/console/items/${b.flight.action_id}`;
    const page = await browser.get(path);
    expect(page.text).toContain('<label for="act-pnr">PNR</label>');
    expect(page.text).toContain('<label for="act-ticket">Ticket id</label>');
    const csrf = csrfOf(page.text);
    const bad = await browser.post(`${path}/actions`, {
      csrf_token: csrf,
      action: 'RECORD_PNR',
      pnr: '<b>!',
      ticket_id: 'T-1',
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('pnr');
    expect(bad.text).not.toContain('<b>!');
    const res = await browser.post(`${path}/actions`, {
      csrf_token: csrf,
      action: 'RECORD_PNR',
      pnr: 'abc123',
      ticket_id: '0161234567890',
    });
    expect(res.status).toBe(303);
    const booking = await settledBooking(stack, b.t.accessToken, b.flight.booking_id!);
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(booking.flight).toMatchObject({ pnr: 'ABC123' });
  });
});

describe('accepting an airline change', () => {
  it('Duffel does not answer: 503 on the item page with a "try again" alert and Retry-After, the item still OPEN', async () => {
    const e = await reviewAirline(stack, { name: 'Queue Air E', carrier: 'QE' });
    // The deadhead's booking as the worker leaves one whose airline changed it at Duffel: in review, the change open.
    await stack.database.db
      .updateTable('bookings')
      .set({
        status: 'NEEDS_REVIEW',
        flight: sql`coalesce(flight, '{}'::jsonb) || ${JSON.stringify({
          supplier: 'DUFFEL',
          supplier_ref: 'ord_0000AirlineChange',
          airline_change_id: 'oac_0000AirlineChange',
        })}::jsonb`,
      })
      .where('booking_id', '=', e.flight.booking_id!)
      .execute();
    const calls: string[] = [];
    const timedOut = () =>
      new SupplierError('transient', SupplierErrorCode.TIMEOUT, 'Duffel timed out', { operation: 'duffel.getChange' });
    const changes = {
      getChange: async (orderId: string, changeId: string) => {
        calls.push(`${orderId} ${changeId}`);
        throw timedOut();
      },
      acceptChange: async () => {
        throw timedOut();
      },
    } as unknown as DuffelChanges;
    const deps = { ...consoleDeps(apiDepsOf(stack)), airlineChanges: async () => changes };
    const app = express();
    app.use(consoleRouter(deps));
    const server = createServer(app);
    const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    try {
      const { browser } = await signedIn(e.t, 'AGENT');
      const there = new ConsoleClient(url);
      there.cookies.set('console_session', browser.cookies.get('console_session')!);
      const path = `/console/items/${e.flight.action_id}`;
      const page = await there.get(path);
      expect(page.text).toContain('<input type="hidden" name="action" value="ACCEPT_CHANGE" />');
      const res = await there.post(`${path}/actions`, { csrf_token: csrfOf(page.text), action: 'ACCEPT_CHANGE' });
      expect(calls).toEqual(['ord_0000AirlineChange oac_0000AirlineChange']);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.text).toMatch(
        /<div class="error" role="alert"><p>The action was not taken: Duffel did not answer; try again[^<]*<\/p>/,
      );
      // The item page itself, its actions still offered.
      expect(res.text).toContain('<input type="hidden" name="action" value="ACCEPT_CHANGE" />');
    } finally {
      await new Promise((r) => server.close(r));
    }
    const item = await http(`${stack.apiUrl}/api/v1/crew/action-items/${e.flight.action_id}`, {
      token: e.t.accessToken,
    });
    expect(item.body).toMatchObject({ review_status: 'OPEN', action_taken: null });
    expect(item.body.available_actions).toContain('ACCEPT_CHANGE');
  });
});

describe('hotel actions', () => {
  it('a price held for review: the page shows the held price and "Accept price"; accepting confirms the booking', async () => {
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 25 });
    const c = await reviewAirline(stack, { name: 'Queue Air C', carrier: 'QC', contract: true });
    await clearFaults();
    expect(c.hotel.available_actions).toEqual(['ACCEPT_PRICE', 'DISMISS', 'ASSIGN']);
    const { browser } = await signedIn(c.t, 'AGENT');
    const path = `/console/items/${c.hotel.action_id}`;
    const page = await browser.get(path);
    expect(page.text).toContain('<h2 id="layover-h">Layover</h2>');
    expect(page.text).toContain('<h2 id="booked-h">Booked hotel</h2>');
    expect(page.text).toMatch(
      /Keep the reservation at the supplier’s price: [0-9.]+ USD a night \(contracted 180.00 USD\)/,
    );
    expect(page.text).toContain('<button type="submit">Accept price</button>');
    const res = await browser.post(`${path}/actions`, { csrf_token: csrfOf(page.text), action: 'ACCEPT_PRICE' });
    expect(res.status).toBe(303);
    expect((await browser.get(res.location!)).text).toContain('Accept price: done.');
    const booking = await settledBooking(stack, c.t.accessToken, c.hotel.booking_id!);
    expect(booking.status).toBe('CONFIRMED');
  });

  it('a failed booking: "Book at the contracted hotel" and "Retry" are offered; booking the contracted hotel confirms it', async () => {
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const d = await reviewAirline(stack, { name: 'Queue Air D', carrier: 'QD', contract: true });
    await clearFaults();
    expect(d.hotel).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    const { browser } = await signedIn(d.t, 'AGENT');
    const path = `/console/items/${d.hotel.action_id}`;
    const page = await browser.get(path);
    expect(page.text).toContain('<button type="submit">Retry</button>');
    expect(page.text).toContain('<input type="hidden" name="property_id" value="GDS-JFK-001" />');
    expect(page.text).toContain('<button type="submit">Book at the contracted hotel</button>');
    const res = await browser.post(`${path}/actions`, {
      csrf_token: csrfOf(page.text),
      action: 'BOOK_HOTEL',
      property_id: 'GDS-JFK-001',
    });
    expect(res.status).toBe(303);
    const booking = await settledBooking(stack, d.t.accessToken, d.hotel.booking_id!);
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(booking.hotel).toMatchObject({ property_id: 'GDS-JFK-001' });
  });

  it('no hotel configured: the page asks for a property id ("Book this hotel")', async () => {
    const { browser } = await signedIn(a.t, 'AGENT');
    const page = await browser.get(`/console/items/${a.hotel.action_id}`);
    expect(page.text).toContain('The airline has no hotel configured at this station.');
    expect(page.text).toContain('<label for="act-property">Property id of another hotel</label>');
  });
});

describe('the coverage board', () => {
  it('counts covered, at risk and uncovered per station for 24 and 72 hours, in a table with bars', async () => {
    const { browser } = await signedIn(a.t, 'VIEWER');
    const page = await browser.get('/console/coverage');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Coverage</h1>');
    expect(page.text).toContain('Next 24 hours');
    expect(page.text).toContain('Next 72 hours');
    for (const h of ['Covered', 'At risk', 'Uncovered'])
      expect(page.text).toContain(`<th scope="col" class="num">${h}</th>`);
    expect(page.text).toContain('<th scope="row">JFK</th>');
    expect(page.text).toContain('<th scope="row">LHR</th>');
    expect(page.text).toContain('<svg class="bar"');
    // The Content-Security-Policy allows no inline style: the bars are drawn with attributes and classes.
    expect(page.text).not.toMatch(/style=/);
  });
});

describe('the OpenAPI document', () => {
  it('documents every page; only a console form that acts answers its success with 303 instead of a 2xx', async () => {
    const doc = (await http(`${stack.apiUrl}/openapi.json`)).body as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    for (const p of [
      '/console',
      '/console/items/{action_id}',
      '/console/items/{action_id}/actions',
      '/console/coverage',
    ])
      expect(Object.keys(doc.paths)).toContain(p);
    const without2xx = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op && typeof op === 'object' && op.responses)
        .filter(([, op]) => !Object.keys(op.responses!).some((code) => /^2/.test(code)))
        .map(([method]) => `${method} ${path}`),
    );
    expect(without2xx).toEqual(['post /console/items/{action_id}/actions']);
  });
});
