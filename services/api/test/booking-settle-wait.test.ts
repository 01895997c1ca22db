/**
 * PATCH and DELETE wait for the worker's outcome on the booking's settle notification (a trigger NOTIFYs
 * `booking_settled` when a booking leaves PENDING, delivered at commit), not by re-reading the row every 50 ms.
 * The listener survives its connection being killed.
 */
import { randomUUID } from 'node:crypto';
import { BOOKING_SETTLED_CHANNEL, PgListener, sql, type Db } from '@crew/db';
import { createLogger, TravellerVault } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import type { Principal } from '../src';
import { deleteBooking } from '../src/bookings/bookings.service';
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

let stack: Stack;
const listeners: PgListener[] = [];

beforeAll(async () => {
  // Every supplier call takes a second: the DELETE below waits about that long for its outcome.
  stack = await startStack('settle_wait', {
    worker: true,
    sandboxLatencyMs: 1000,
    now: () => new Date('2027-03-01T00:00:00Z'),
  });
});
afterAll(async () => {
  for (const l of listeners) await l.close();
  await stack.close();
});

function listener(applicationName: string): PgListener {
  const l = new PgListener(stack.database.url, BOOKING_SETTLED_CHANNEL, {
    applicationName,
    retryMs: { first: 50, max: 200 },
  }).start();
  listeners.push(l);
  return l;
}

/**
 * Resolves once `l` has received a marker notified now on its channel. Postgres delivers notifications in
 * commit order, so whatever the statements before this one notified has arrived by then too: a test proves
 * "no notification" by this, not by waiting a while.
 */
async function markerDelivered(l: PgListener): Promise<void> {
  const marker = `marker-${randomUUID()}`;
  let arrived = false;
  const unsubscribe = l.subscribe(marker, () => (arrived = true));
  try {
    await sql`select pg_notify(${BOOKING_SETTLED_CHANNEL}, ${marker})`.execute(stack.database.db);
    await waitFor(() => arrived, 10_000, 'the marker notification', 20);
  } finally {
    unsubscribe();
  }
}

/** A CONFIRMED hotel booking of a fresh airline, and its caller. */
async function confirmedHotel(carrier: string) {
  const t = await onboard(stack, {
    name: `Settle Air ${carrier}`,
    carrier,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const email = `crew-${carrier.toLowerCase()}@air.test`;
  await bookingAccount(stack, t, email, true);
  await contractStations(stack, t, ['JFK']);
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    token: t.accessToken,
    method: 'POST',
    body: onePairingRoster({ email }),
  });
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find(
    (i: { type: string }) => i.type === 'HOTEL',
  )!;
  const bookingId = item.booking_id as string;
  await waitFor(
    async () =>
      (
        await stack.database.db
          .selectFrom('bookings')
          .select('status')
          .where('booking_id', '=', bookingId)
          .executeTakeFirstOrThrow()
      ).status === 'CONFIRMED',
    30_000,
    'the booking to be CONFIRMED',
    20,
  );
  const caller: Principal = {
    airline_id: t.airlineId,
    user_id: 'u',
    email: 'ops@air.test',
    client_id: 'c',
    scopes: new Set(),
    expires_at_ms: Number.MAX_SAFE_INTEGER,
  };
  return { bookingId, caller };
}

it('DELETE answers with the worker’s outcome, reading the booking a few times instead of every 50 ms', async () => {
  const { bookingId, caller } = await confirmedHotel('SW');
  let reads = 0;
  // Counts the service's reads of the bookings table.
  const counter: Parameters<Db['withPlugin']>[0] = {
    transformQuery: ({ node }) => {
      // The operation tree as JSON: a select whose FROM names the bookings table.
      if (
        node.kind === 'SelectQueryNode' &&
        /"kind":"TableNode","table":\{[^}]*"name":"bookings"/.test(JSON.stringify(node.from))
      )
        reads++;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const bookingSettled = listener('settle-test-api');
  await waitFor(() => bookingSettled.listening, 10_000, 'LISTEN', 20);
  const started = Date.now();
  const b = await deleteBooking(
    {
      db: stack.database.db.withPlugin(counter),
      relay: stack.relay,
      suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
      logger: createLogger('test', 'silent'),
      vault: TravellerVault.fromKey(stack.config.supplierCredentialsKey),
      bookingSettled,
    },
    caller,
    bookingId,
    'settle wait test',
  );
  const took = Date.now() - started;
  expect(b.status).toBe('CANCELLED');
  // The supplier took a second: polling every 50 ms would have read the booking some 20 times.
  expect(took).toBeGreaterThanOrEqual(900);
  // The counter sees the reads (at least the first one and the one after the notification).
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(reads).toBeLessThanOrEqual(4);
});

it('the trigger notifies once a booking leaves PENDING, at commit only; a killed listener reconnects and wakes its subscribers', async () => {
  const { bookingId } = await confirmedHotel('SX');
  const db = stack.database.db;
  const l = listener('settle-test-listener');
  await waitFor(() => l.listening, 10_000, 'LISTEN', 20);
  let wakes = 0;
  const unsubscribe = l.subscribe(bookingId, () => wakes++);

  // Into PENDING and between settled states: no notification.
  await sql`update bookings set status = 'PENDING' where booking_id = ${bookingId}`.execute(db);
  await sql`update bookings set status = 'PENDING', updated_at = now() where booking_id = ${bookingId}`.execute(db);
  // Out of PENDING, rolled back: none; committed: delivered after the commit, not before.
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`update bookings set status = 'FAILED' where booking_id = ${bookingId}`.execute(trx);
      throw new Error('rollback');
    })
    .catch(() => undefined);
  await markerDelivered(l);
  expect(wakes).toBe(0);
  await db.transaction().execute(async (trx) => {
    await sql`update bookings set status = 'FAILED' where booking_id = ${bookingId}`.execute(trx);
    // A marker committed on another connection meanwhile arrives; this update's notification does not, yet.
    await markerDelivered(l);
    expect(wakes).toBe(0);
  });
  await waitFor(() => wakes === 1, 10_000, 'wake 1', 20);
  await sql`update bookings set status = 'NEEDS_REVIEW' where booking_id = ${bookingId}`.execute(db);
  await markerDelivered(l);
  expect(wakes).toBe(1);

  // Its connection killed (as by a Postgres restart): it reconnects, wakes every subscriber (a notification
  // may have been missed meanwhile), and keeps delivering.
  const killed = await sql<{
    n: number;
  }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = 'settle-test-listener'`.execute(
    db,
  );
  expect(killed.rows[0]!.n).toBe(1);
  await waitFor(() => wakes === 2, 10_000, 'wake 2', 20);
  await waitFor(() => l.listening, 10_000, 'LISTEN', 20);
  await sql`update bookings set status = 'PENDING' where booking_id = ${bookingId}`.execute(db);
  await sql`update bookings set status = 'CONFIRMED' where booking_id = ${bookingId}`.execute(db);
  await waitFor(() => wakes === 3, 10_000, 'wake 3', 20);
  unsubscribe();
  await sql`update bookings set status = 'PENDING' where booking_id = ${bookingId}`.execute(db);
  await sql`update bookings set status = 'CONFIRMED' where booking_id = ${bookingId}`.execute(db);
  await markerDelivered(l);
  expect(wakes).toBe(3);
});
