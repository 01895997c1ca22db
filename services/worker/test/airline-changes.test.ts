/**
 * Airline-initiated changes on Duffel orders, through the real stack: the operator connects an airline to
 * the sandbox's Duffel (the PUT registers the webhook), a deadhead holds a Duffel order, the sandbox's airline
 * changes it and sends the signed event to the api's callback, and the worker accepts the change or sends
 * the booking to review with the airline's webhook event. The booking row is inserted as the booking
 * processor leaves a ticketed Duffel deadhead (the worker's registry does not build Duffel adapters yet).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { airlineChangeRepo, sql } from '@crew/db';
import { createLogger } from '@crew/platform';
import {
  createDuffelClient,
  DuffelChanges,
  DuffelFlightSupplier,
  duffelSignatureHeader,
  registerDuffelWebhook,
  toAirlineChange,
  type FlightOrder,
} from '@crew/suppliers';
import { http, onboard, type Stack, startStack, type Tenant, waitFor } from '@crew/test-support';
import { AirlineChangeProcessor } from '../src/bookings/airline-change';

const TOKEN = 'duffel_test_AirlineChanges0123456789';
const traveller = {
  email: 'ana.silva@crew.example',
  first_name: 'Ana',
  last_name: 'Silva',
  date_of_birth: '1988-04-12',
  title: 'ms' as const,
  gender: 'f' as const,
  phone_number: '+442080160509',
};
// A duty a month ahead: the periodic check looks at today's duties and later.
const DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

let stack: Stack;
let tenant: Tenant;
let receiver: Server;
const received: Array<{ type: string; data: { booking_id?: string; status?: string; review_reason?: string } }> = [];

const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const control = (path: string, body: unknown) =>
  http(`${stack.sandboxUrl}/_control/duffel${path}`, { method: 'POST', body });

beforeAll(async () => {
  stack = await startStack('airline_changes', { worker: true });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as (typeof received)[number]);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  tenant = await onboard(stack, { name: 'Change Air', carrier: 'CZ', scopes: 'events:read events:write' });
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const endpoint = await http(`${stack.apiUrl}/api/v1/crew/webhooks`, {
    method: 'POST',
    token: tenant.accessToken,
    body: { url, event_types: ['booking.needs_review'] },
  });
  expect(endpoint.status).toBe(201);
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => receiver?.close(r));
});

/** A Duffel order as the booking processor makes one, and the booking row it leaves (CONFIRMED). */
async function ticketedDeadhead(
  reference: string,
  withActionItem = false,
): Promise<{ bookingId: string; order: FlightOrder; actionId: string | null }> {
  const flights = new DuffelFlightSupplier(createDuffelClient({ token: TOKEN, basePath: stack.config.duffelApiUrl }), {
    liveMode: false,
    timeoutMs: 5000,
  });
  const offers = await flights.searchFlights({ from_airport: 'LHR', to_airport: 'JFK', date: DATE, cabin: 'ECONOMY' });
  const order = await flights.bookFlight({
    reference,
    flight_option_id: offers[0]!.flight_option_id,
    traveller,
    booker_email: 'crew@change.example',
  });
  const f = order.flight;
  const item = withActionItem
    ? await stack.database.db
        .insertInto('action_items')
        .values({
          airline_id: tenant.airlineId,
          schedule_id: null,
          item_key: `deadhead:${reference}`,
          source: 'AIRLINE_INJECTED',
          type: 'FLIGHT',
          subtype: 'DEADHEAD',
          classification: 'NEW',
          priority: 'P3',
          disposition: 'AUTO_BOOKED',
          auto_eligible: true,
          anchors: JSON.stringify({ duty_date: DATE }),
          source_rows: JSON.stringify({ day1_row: null, day2_row: null }),
          details: JSON.stringify({ from_airport: 'LHR', to_airport: 'JFK' }),
          booking_id: null,
          flight_options_url: null,
          recommended_action: null,
          message: null,
          notes: null,
          irop_ref: null,
          event_at: null,
          disposition_at: null,
        })
        .returning('action_id')
        .executeTakeFirstOrThrow()
    : null;
  const row = await stack.database.db
    .insertInto('bookings')
    .values({
      airline_id: tenant.airlineId,
      type: 'FLIGHT',
      status: 'CONFIRMED',
      source: 'AIRLINE_INJECTED',
      traveller_email: traveller.email,
      duty_date: DATE,
      action_id: item?.action_id ?? null,
      from_airport: 'LHR',
      to_airport: 'JFK',
      // The leg was asked for as the flight booked: its window is three hours either side.
      dep_time_local: f.dep_time,
      arr_time_local: f.arr_time,
      flight: JSON.stringify({
        supplier: 'DUFFEL',
        live_mode: false,
        supplier_ref: order.supplier_ref,
        ...f,
        price: order.price,
        supplier_status: 'CONFIRMED',
      }),
    })
    .returning('booking_id')
    .executeTakeFirstOrThrow();
  // The item and its booking name each other, as the pipeline leaves them.
  if (item)
    await stack.database.db
      .updateTable('action_items')
      .set({ booking_id: row.booking_id })
      .where('action_id', '=', item.action_id)
      .execute();
  return { bookingId: row.booking_id, order, actionId: item?.action_id ?? null };
}

/** The order's first airline-initiated change as the sandbox's Duffel holds it. */
const duffelChange = async (orderId: string) =>
  (
    await http(`${stack.sandboxUrl}/duffel/air/airline_initiated_changes?order_id=${orderId}`, {
      token: TOKEN,
      headers: { 'duffel-version': 'v2' },
    })
  ).body.data[0];

const bookingRow = async (id: string) =>
  (
    await sql<{
      status: string;
      review_reason: string | null;
      flight: Record<string, string | null>;
    }>`select status, review_reason, flight from bookings where booking_id = ${id}`.execute(stack.database.db)
  ).rows[0]!;

describe('airline-initiated changes on Duffel orders', () => {
  it("connecting Duffel registers the webhook with the airline's token and keeps its secret sealed", async () => {
    const put = await ops(`/airlines/${tenant.airlineId}/suppliers`, {
      method: 'PUT',
      body: { flights: ['SANDBOX', 'DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: TOKEN } },
    });
    expect(put.status).toBe(200);
    expect(put.body.duffel).toEqual({ access_token_set: true, live_mode: false, webhook_registered: true });
    const row = (
      await sql<{
        id: string;
        sealed: string;
      }>`select duffel_webhook_id as id, duffel_webhook_secret_sealed as sealed from airline_suppliers where airline_id = ${tenant.airlineId}`.execute(
        stack.database.db,
      )
    ).rows[0]!;
    expect(row.id).toMatch(/^sev_/);
    expect(row.sealed).toBeTruthy();
  });

  it('a registration Duffel fails does not fail the PUT; the next PUT registers it', async () => {
    const other = (await ops('/airlines', { method: 'POST', body: { name: 'Later Air', carrier_code: 'LZ' } })).body
      .airline_id as string;
    const token = 'duffel_test_LaterRegistration0123456789';
    await control('/faults', { token, operation: 'webhooks.create', outcome: 'error' });
    const body = { flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } };
    const first = await ops(`/airlines/${other}/suppliers`, { method: 'PUT', body });
    expect(first.status).toBe(200);
    expect(first.body.duffel).toEqual({ access_token_set: true, live_mode: false, webhook_registered: false });
    // The token is kept (duffel omitted); the missing webhook is registered now.
    const again = await ops(`/airlines/${other}/suppliers`, {
      method: 'PUT',
      body: { flights: ['DUFFEL'], hotels: ['SANDBOX'] },
    });
    expect(again.body.duffel).toEqual({ access_token_set: true, live_mode: false, webhook_registered: true });
  });

  it("the periodic check's registration that loses to a PUT's is deleted at Duffel again", async () => {
    const other = (await ops('/airlines', { method: 'POST', body: { name: 'Race Air', carrier_code: 'RZ' } })).body
      .airline_id as string;
    const token = 'duffel_test_RacingRegistration0123456789';
    await control('/faults', { token, operation: 'webhooks.create', outcome: 'error' });
    const body = { flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } };
    expect((await ops(`/airlines/${other}/suppliers`, { method: 'PUT', body })).body.duffel).toMatchObject({
      webhook_registered: false,
    });
    const logger = createLogger('test', 'silent');
    const check = new AirlineChangeProcessor({
      db: stack.database.db,
      config: stack.config,
      logger,
      // Registered at Duffel; meanwhile a PUT records its own.
      registerWebhook: async (t, url) => {
        const hook = await registerDuffelWebhook(stack.config.duffelApiUrl, t, url);
        const { token_sealed } = (
          await sql<{
            token_sealed: string;
          }>`select duffel_token_sealed as token_sealed from airline_suppliers where airline_id = ${other}`.execute(
            stack.database.db,
          )
        ).rows[0]!;
        await airlineChangeRepo.saveDuffelWebhook(stack.database.db, other, token_sealed, 'sev_put', 'sealed');
        return hook;
      },
    });
    await check.sweep();
    const listed = await createDuffelClient({ token, basePath: stack.config.duffelApiUrl }).webhooks.list({});
    expect(listed.data).toEqual([]);
  });

  it('a change that still brings the crew member on time is accepted at Duffel and the flight block updated', async () => {
    const { bookingId, order } = await ticketedDeadhead('aic-accept');
    const res = await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: 60,
      flight_number: '4242',
      rebase: stack.apiUrl,
    });
    expect(res.status).toBe(201);
    expect(res.body.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
    const b = await waitFor(
      async () => {
        const r = await bookingRow(bookingId);
        return r.flight.flight_number !== order.flight.flight_number && r;
      },
      15_000,
      'the accepted change on the booking',
    );
    expect(b.status).toBe('CONFIRMED');
    expect(b.flight).toMatchObject({
      flight_number: expect.stringMatching(/4242$/),
      supplier_ref: order.supplier_ref,
      airline_change_id: null,
    });
    expect(Date.parse(b.flight.arr_time!) - Date.parse(order.flight.arr_time)).toBe(3_600_000);
    // Accepted at Duffel: the order now flies the new times.
    expect(await duffelChange(order.supplier_ref)).toMatchObject({ action_taken: 'accepted' });
  });

  it('a change accepted meanwhile (the event and the periodic check racing) stays accepted, never sent to review', async () => {
    const { bookingId, order } = await ticketedDeadhead('aic-race');
    const res = await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: 30,
      deliver: false,
    });
    const stale = toAirlineChange(res.body.change);
    const client = new DuffelChanges(createDuffelClient({ token: TOKEN, basePath: stack.config.duffelApiUrl }), {
      timeoutMs: 5000,
    });
    expect(await stack.worker!.airlineChanges.apply(tenant.airlineId, client, stale)).toBe('ACCEPTED');
    // The second run still holds the change as open: Duffel refuses the accept, the change reads accepted.
    expect(await stack.worker!.airlineChanges.apply(tenant.airlineId, client, stale)).toBe('ACCEPTED');
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'CONFIRMED', review_reason: null });
  });

  it("a change that misses the duty sends the booking to NEEDS_REVIEW with the change id and the airline's event", async () => {
    const { bookingId, order, actionId } = await ticketedDeadhead('aic-review', true);
    const res = await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: 600,
      rebase: stack.apiUrl,
    });
    expect(res.body.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
    const b = await waitFor(
      async () => {
        const r = await bookingRow(bookingId);
        return r.status === 'NEEDS_REVIEW' && r;
      },
      15_000,
      'the booking under review',
    );
    expect(b.review_reason).toContain('after the latest arrival');
    expect(b.flight.airline_change_id).toBe(res.body.change.id);
    const item = await stack.database.db
      .selectFrom('action_items')
      .select(['disposition', 'recommended_action', 'message'])
      .where('action_id', '=', actionId!)
      .executeTakeFirstOrThrow();
    expect(item).toEqual({
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      message: b.review_reason,
    });
    // Not accepted: the change waits at Duffel for a person.
    expect(await duffelChange(order.supplier_ref)).toMatchObject({ action_taken: null });
    const event = await waitFor(
      () => received.find((e) => e.data.booking_id === bookingId),
      15_000,
      'booking.needs_review at the airline',
    );
    expect(event).toMatchObject({ type: 'booking.needs_review', data: { status: 'NEEDS_REVIEW' } });
  });

  it('a person accepts the change from the review queue (ACCEPT_CHANGE): accepted at Duffel, the booking CONFIRMED on the changed flight, the item RESOLVED; a second person gets 409', async () => {
    const { bookingId, order, actionId } = await ticketedDeadhead('aic-person', true);
    const res = await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: 600,
      flight_number: '4343',
      rebase: stack.apiUrl,
    });
    expect(res.body.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
    const underReview = async () => (await bookingRow(bookingId)).status === 'NEEDS_REVIEW';
    await waitFor(underReview, 15_000, 'the booking under review');
    const crew = (path: string, init: Parameters<typeof http>[1] = {}) =>
      http(`${stack.apiUrl}/api/v1/crew${path}`, { token: tenant.accessToken, ...init });
    const act = (who: string) =>
      crew(`/action-items/${actionId}/actions`, {
        method: 'POST',
        body: { action: 'ACCEPT_CHANGE', acting_user: who },
      });
    expect((await crew(`/action-items/${actionId}`)).body).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      available_actions: expect.arrayContaining(['ACCEPT_CHANGE', 'DISMISS']),
    });

    // Duffel fails once: 503, nothing written, the change still open at Duffel, the item still OPEN.
    await control('/faults', { token: TOKEN, operation: 'airline_initiated_changes.accept', outcome: 'error' });
    expect((await act('a@change.example')).status).toBe(503);
    expect((await bookingRow(bookingId)).status).toBe('NEEDS_REVIEW');
    expect((await crew(`/action-items/${actionId}`)).body.review_status).toBe('OPEN');

    const both = await Promise.all([act('a@change.example'), act('b@change.example')]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    const won = both.find((r) => r.status === 202)!;
    expect(won.body).toMatchObject({
      action_id: actionId,
      booking_id: bookingId,
      disposition: 'AUTO_BOOKED',
      review_status: 'RESOLVED',
      action_taken: 'ACCEPT_CHANGE',
      action_taken_by: expect.stringMatching(/^[ab]@change\.example$/),
      recommended_action: null,
      available_actions: [],
      due_by: null,
    });
    const b = await bookingRow(bookingId);
    expect(b).toMatchObject({ status: 'CONFIRMED', review_reason: null, flight: { airline_change_id: null } });
    expect(b.flight).toMatchObject({ flight_number: expect.stringMatching(/4343$/), supplier_ref: order.supplier_ref });
    expect(Date.parse(b.flight.arr_time!) - Date.parse(order.flight.arr_time)).toBe(600 * 60_000);
    expect(await duffelChange(order.supplier_ref)).toMatchObject({ id: res.body.change.id, action_taken: 'accepted' });
    // Nothing is left to accept.
    expect((await act('c@change.example')).status).toBe(409);
  });

  it('a delivery whose signature does not verify is refused 401 and changes nothing', async () => {
    const { bookingId, order } = await ticketedDeadhead('aic-forged');
    const res = await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: 600,
      rebase: stack.apiUrl,
      bad_signature: true,
    });
    expect(res.body.deliveries).toEqual([expect.objectContaining({ status: 401 })]);
    const body = JSON.stringify({
      id: 'wev_forged',
      type: 'order.airline_initiated_change_detected',
      data: { object: { id: res.body.change.id, order_id: order.supplier_ref } },
    });
    const path = `${stack.apiUrl}/callbacks/duffel/${tenant.airlineId}`;
    const unsigned = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(401);
    const otherSecret = await fetch(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-duffel-signature': duffelSignatureHeader(body, 'not-the-secret'),
      },
      body,
    });
    expect(otherSecret.status).toBe(401);
    const unknownAirline = await fetch(`${stack.apiUrl}/callbacks/duffel/00000000-0000-0000-0000-000000000000`, {
      method: 'POST',
      body,
    });
    expect(unknownAirline.status).toBe(401);
    expect((await bookingRow(bookingId)).status).toBe('CONFIRMED');
  });

  it('the periodic check finds a change whose event never came', async () => {
    const { bookingId, order } = await ticketedDeadhead('aic-sweep');
    await control('/airline-changes', {
      token: TOKEN,
      order_id: order.supplier_ref,
      shift_minutes: -30,
      deliver: false,
    });
    const totals = await stack.worker!.airlineChanges.sweep();
    expect(totals.airlines).toBeGreaterThanOrEqual(1);
    const b = await bookingRow(bookingId);
    expect(b.status).toBe('CONFIRMED');
    expect(Date.parse(b.flight.dep_time!) - Date.parse(order.flight.dep_time)).toBe(-1_800_000);
  });
});
