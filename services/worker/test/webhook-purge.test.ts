/**
 * Webhook history is not kept for ever: the worker deletes SUCCEEDED and FAILED deliveries older than
 * WEBHOOK_RETENTION_DAYS, then the events older than that with no delivery left (a deleted endpoint's too), a
 * batch at a time. A PENDING delivery (an endpoint disabled meanwhile) is kept, and its event with it.
 */
import { randomUUID } from 'node:crypto';
import { sql, webhookRepo } from '@crew/db';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import { type Stack, startStack, waitFor } from '@crew/test-support';
import { purgeWebhookHistory } from '../src/webhooks/purge';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('webhook_purge');
});
afterAll(() => stack.close());

const db = () => stack.database.db;

async function airlineWithEndpoints(names: string[]) {
  const airlineId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Purge Air', 'PG')`.execute(
    db(),
  );
  const endpoints: Record<string, string> = {};
  for (const name of names)
    endpoints[name] = (
      await webhookRepo.insertEndpoint(db(), {
        airline_id: airlineId,
        url: `http://127.0.0.1:9/${name}`,
        description: null,
        event_types: ['booking.confirmed'],
        secret_enc: 'x',
      })
    ).endpoint_id;
  return { airlineId, endpoints };
}

/** An event to the given endpoints, written `days` ago, its deliveries in `status`. */
async function event(airlineId: string, endpointIds: string[], days: number, status: string) {
  const id = (await webhookRepo.emitToEndpoints(db(), airlineId, endpointIds, {
    type: 'booking.confirmed',
    data: { days, status },
    links: {},
  }))!;
  await sql`update webhook_events set created_at = now() - ${days} * interval '1 day' where event_id = ${id}`.execute(
    db(),
  );
  await sql`update webhook_deliveries set created_at = now() - ${days} * interval '1 day', status = ${status}
    where event_id = ${id}`.execute(db());
  return id;
}

const left = async (airlineId: string) => ({
  events: (
    await db().selectFrom('webhook_events').select('event_id').where('airline_id', '=', airlineId).execute()
  ).map((r) => r.event_id),
  deliveries: (
    await db()
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.event_id', 'd.event_id')
      .select(['d.event_id', 'd.endpoint_id', 'd.status'])
      .where('e.airline_id', '=', airlineId)
      .execute()
  ).map((r) => `${r.event_id}/${r.endpoint_id}/${r.status}`),
});

it('the worker deletes finished deliveries and their events past the retention; pending ones, young ones and their events stay', async () => {
  const { airlineId, endpoints: ep } = await airlineWithEndpoints(['a', 'b', 'gone']);
  // Written oldest first, as events are.
  const orphanOld = await event(airlineId, [ep.gone!], 60, 'SUCCEEDED');
  const oldPending = await event(airlineId, [ep.a!], 45, 'PENDING');
  const oldFailed = await event(airlineId, [ep.a!, ep.b!], 40, 'FAILED');
  // One event, two endpoints: one delivered, one still waiting (its endpoint disabled).
  const half = await event(airlineId, [ep.a!, ep.b!], 35, 'SUCCEEDED');
  await sql`update webhook_deliveries set status = 'PENDING' where event_id = ${half} and endpoint_id = ${ep.b!}`.execute(
    db(),
  );
  const oldSucceeded = await event(airlineId, [ep.a!], 31, 'SUCCEEDED');
  const young = await event(airlineId, [ep.a!, ep.b!], 29, 'SUCCEEDED');
  const orphanYoung = await event(airlineId, [ep.gone!], 2, 'SUCCEEDED');
  // A deleted endpoint's events (its deliveries went with it): the old one goes, the young one waits its turn.
  await webhookRepo.deleteEndpoint(db(), airlineId, ep.gone!);
  // Nothing is sent meanwhile: the endpoints are disabled (their pending deliveries wait, as they would).
  for (const id of [ep.a!, ep.b!]) await webhookRepo.updateEndpoint(db(), airlineId, id, { enabled: false });

  const w = startWorkerRuntime({
    config: { ...stack.config, webhookRetentionDays: 30 },
    db: db(),
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
    webhookPurgeMs: 200,
  });
  try {
    await waitFor(async () => !(await left(airlineId)).events.includes(oldSucceeded), 10_000, 'the purge');
  } finally {
    await w.close();
  }
  const after = await left(airlineId);
  expect(after.events.sort()).toEqual([oldPending, half, young, orphanYoung].sort());
  expect(after.deliveries.sort()).toEqual(
    [
      `${oldPending}/${ep.a}/PENDING`,
      `${half}/${ep.b}/PENDING`,
      `${young}/${ep.a}/SUCCEEDED`,
      `${young}/${ep.b}/SUCCEEDED`,
    ].sort(),
  );
  expect(after.events).not.toContain(orphanOld);
  expect(after.events).not.toContain(oldFailed);
});

it('works a backlog off a batch at a time, each call going on where the last stopped, back to the oldest at the end', async () => {
  const { airlineId, endpoints: ep } = await airlineWithEndpoints(['c']);
  // Past the other test's events (kept: young, or held by a PENDING delivery), which every pass reads again.
  const from = (
    await db()
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.max('seq').as('s'))
      .executeTakeFirstOrThrow()
  ).s;
  const old: string[] = [];
  for (let i = 0; i < 5; i++) old.push(await event(airlineId, [ep.c!], 31, 'SUCCEEDED'));
  const keep = await event(airlineId, [ep.c!], 1, 'SUCCEEDED');
  const first = await purgeWebhookHistory(db(), 30, { batch: 2, maxBatches: 2, afterSeq: from });
  expect(first).toMatchObject({ deliveries: 4, events: 4, next: expect.any(Number) });
  expect(first.next).toBeGreaterThan(from);
  expect((await left(airlineId)).events.sort()).toEqual([old[4]!, keep].sort());
  // The rest, then the first young event: the walk ends and the next call starts from the oldest again.
  expect(await purgeWebhookHistory(db(), 30, { batch: 2, maxBatches: 10, afterSeq: first.next })).toEqual({
    deliveries: 1,
    events: 1,
    next: 0,
  });
  expect((await left(airlineId)).events).toEqual([keep]);
  expect(await purgeWebhookHistory(db(), 30, { batch: 2, maxBatches: 10, afterSeq: from })).toEqual({
    deliveries: 0,
    events: 0,
    next: 0,
  });
});
