import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { closeServer, createLogger, listen } from '@crew/platform';
import { closeQueues, createQueues, createRedis, type Queues } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime, type WorkerRuntime } from '../src';
import { WorkerHealth } from '../src/operability/health';
import { PromWorkerMetrics } from '../src/operability/metrics';
import { createWorkerOps } from '../src/operability/server';
import {
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  parsePrometheusText,
  redisTarget,
  sampleValue,
  type Stack,
  startStack,
  startTcpRelay,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

const SCOPES = 'events:read events:write schedules:read schedules:write';
const logger = createLogger('worker-test', 'silent');

let stack: Stack;
let runtime: WorkerRuntime;
let metrics: PromWorkerMetrics;
let redis: Redis;
let queues: Queues;
let server: Server;
let workerUrl: string;
let workerOps: ReturnType<typeof createWorkerOps>;
/** Everything a test opened beyond the shared fixtures, closed in afterAll even when the test failed. */
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  // No in-process worker from the stack: this file builds the worker process's pieces the way main.ts does.
  stack = await startStack('worker_ops');
  metrics = new PromWorkerMetrics();
  cleanups.push(async () => metrics.close());
  runtime = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger,
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
    now: () => new Date('2027-03-01T00:00:00Z'),
    metrics,
  });
  redis = createRedis(stack.config.redisUrl);
  queues = createQueues(redis, stack.config.queuePrefix);
  workerOps = createWorkerOps({ workers: runtime.workers, queues, metrics, db: stack.database.db, logger });
  cleanups.push(async () => workerOps.stop());
  server = createHttpServer(workerOps.app);
  workerUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await runtime?.close();
  if (server) await closeServer(server, 1000);
  if (queues) await closeQueues(queues);
  redis?.disconnect();
  await stack?.close();
});

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

/** An airline whose JFK layovers auto-book: booker email, a traveller with a date of birth, an enabled contract with a rate. */
async function bookingAirline(): Promise<{ t: Tenant; email: string }> {
  const t = await onboard(stack, {
    name: 'Metrics Air',
    carrier: 'MX',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const email = 'ada@metrics.test';
  await bookingAccount(stack, t, email);
  await contractStations(stack, t, ['JFK']);
  return { t, email };
}

async function scrape(url: string) {
  const res = await http(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(res.text);
}

describe('/metrics after a roster has been processed', () => {
  it('worker and api expose every operational metric with real values', async () => {
    const { t, email } = await bookingAirline();
    const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
    expect(res.status).toBe(202);
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);

    // The layover's booking task runs after the diff; wait until its outcome is counted.
    const worker = await waitFor(
      async () => {
        const m = await scrape(workerUrl);
        return (sampleValue(m, 'crew_booking_outcomes_total', { type: 'HOTEL', status: 'CONFIRMED' }) ?? 0) >= 1 && m;
      },
      15_000,
      'a counted booking outcome',
      100,
    );
    for (const family of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect([family, worker.get(family)?.samples.length ?? 0]).not.toEqual([family, 0]);
    }
    expect(worker.get('crew_schedule_processing_seconds')?.type).toBe('histogram');
    expect(sampleValue(worker, 'crew_schedule_processing_seconds_count', { service: 'worker' })).toBe(1);
    expect(sampleValue(worker, 'crew_schedule_processing_seconds_sum')).toBeGreaterThan(0);
    expect(sampleValue(worker, 'crew_schedule_action_items_total')).toBeGreaterThanOrEqual(2);
    expect(sampleValue(worker, 'crew_booking_outcomes_total', { type: 'HOTEL', status: 'CONFIRMED' })).toBe(1);
    expect(sampleValue(worker, 'crew_booking_outcomes_total', { type: 'FLIGHT', status: 'FAILED' })).toBe(0);
    expect(sampleValue(worker, 'crew_action_item_disposition_seconds_count', { disposition: 'AUTO_BOOKED' })).toBe(1);
    expect(
      sampleValue(worker, 'crew_action_item_disposition_seconds_bucket', { disposition: 'AUTO_BOOKED', le: '+Inf' }),
    ).toBe(1);
    for (const queue of ['schedules', 'bookings']) {
      expect([queue, sampleValue(worker, 'crew_job_duration_seconds_count', { queue, outcome: 'completed' })]).toEqual([
        queue,
        expect.any(Number),
      ]);
      expect(
        sampleValue(worker, 'crew_job_duration_seconds_count', { queue, outcome: 'completed' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sampleValue(worker, 'crew_queue_jobs', { queue, state: 'completed', service: 'worker' }),
      ).toBeGreaterThanOrEqual(1);
      for (const state of ['waiting', 'prioritized', 'delayed', 'active', 'failed'])
        expect([queue, state, sampleValue(worker, 'crew_queue_jobs', { queue, state })]).toEqual([
          queue,
          state,
          expect.any(Number),
        ]);
    }

    const apiMetrics = await scrape(stack.apiUrl);
    expect(
      sampleValue(apiMetrics, 'crew_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/crew/schedules',
        status: '202',
      }),
    ).toBe(1);
    expect(
      sampleValue(apiMetrics, 'crew_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/crew/schedules/:schedule_id/processing-status',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(apiMetrics, 'process_cpu_user_seconds_total', { service: 'api' })).toBeGreaterThan(0);
    // The api counts the same queues under its own prefix.
    expect(sampleValue(apiMetrics, 'crew_queue_jobs', { queue: 'schedules', state: 'completed', service: 'api' })).toBe(
      sampleValue(worker, 'crew_queue_jobs', { queue: 'schedules', state: 'completed' }),
    );
  });
});

describe('webhook metrics', () => {
  it('counts attempts by outcome, observes event lag on success, and samples the waiting backlog with its age', async () => {
    const t = await onboard(stack, {
      name: 'Hook Metrics Air',
      carrier: 'HM',
      scopes: SCOPES,
      settings: { schedules_access: true },
    });
    const email = 'grace@hooks.test';
    await bookingAccount(stack, t, email);
    await contractStations(stack, t, ['JFK']);
    // One receiver that answers 204, and one endpoint whose port refuses connections (its delivery stays pending).
    const receiver = createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    const port = await listen(receiver, 0, '127.0.0.1');
    cleanups.push(() => closeServer(receiver, 1000));
    const closed = createHttpServer();
    const refusedPort = await listen(closed, 0, '127.0.0.1');
    await closeServer(closed, 1000);
    for (const url of [`http://127.0.0.1:${port}/ok`, `http://127.0.0.1:${refusedPort}/down`]) {
      const created = await api(t, '/crew/webhooks', {
        method: 'POST',
        body: { url, event_types: ['booking.confirmed'] },
      });
      expect(created.status).toBe(201);
    }
    const before = await scrape(workerUrl);
    const succeededBefore =
      sampleValue(before, 'crew_webhook_attempts_total', { lane: 'bulk', outcome: 'succeeded' }) ?? 0;
    const failedBefore = sampleValue(before, 'crew_webhook_attempts_total', { lane: 'bulk', outcome: 'failed' }) ?? 0;
    expect(sampleValue(before, 'crew_webhook_event_lag_seconds_count', { lane: 'urgent' })).toBe(0);

    const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
    expect(res.status).toBe(202);
    const m = await waitFor(
      async () => {
        const s = await scrape(workerUrl);
        const ok =
          (sampleValue(s, 'crew_webhook_attempts_total', { lane: 'bulk', outcome: 'succeeded' }) ?? 0) >
          succeededBefore;
        const failed =
          (sampleValue(s, 'crew_webhook_attempts_total', { lane: 'bulk', outcome: 'failed' }) ?? 0) > failedBefore;
        return ok && failed ? s : undefined;
      },
      15_000,
      'a delivered and a failed booking.confirmed attempt',
      100,
    );
    expect(sampleValue(m, 'crew_webhook_event_lag_seconds_count', { lane: 'bulk' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'crew_webhook_event_lag_seconds_sum', { lane: 'bulk' })).toBeGreaterThan(0);

    // The refused endpoint's delivery waits for its retry: one pending in the bulk lane, none urgent.
    await workerOps.sampleLanes();
    const sampled = await scrape(workerUrl);
    expect(sampleValue(sampled, 'crew_webhook_pending_deliveries', { lane: 'bulk' })).toBe(1);
    expect(sampleValue(sampled, 'crew_webhook_oldest_pending_seconds', { lane: 'bulk' })).toBeGreaterThan(0);
    expect(sampleValue(sampled, 'crew_webhook_pending_deliveries', { lane: 'urgent' })).toBe(0);
  });
});

describe('worker health', () => {
  it('/healthz and /readyz answer 200 while the workers consume; other paths 404 in the envelope', async () => {
    const live = await http(`${workerUrl}/healthz`);
    expect(live.status).toBe(200);
    expect(live.body.status).toBe('ok');
    for (const w of runtime.workers)
      expect(live.body.queues[w.name]).toMatchObject({
        running: true,
        redis: true,
        stalled: false,
        running_jobs: expect.any(Number),
      });
    const ready = await http(`${workerUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { postgres: true, redis: true, consumers: true } });
    const other = await http(`${workerUrl}/nope`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
  });

  it('Redis unreachable: readiness fails and recovers with it, liveness stays 200 (the workers reconnect by themselves)', async () => {
    // The worker talks to Redis through a TCP relay this test can cut.
    const relay = await startTcpRelay(redisTarget(stack.config.redisUrl));
    const { port, cut } = relay;
    const connection = createRedis(`redis://127.0.0.1:${port}`, true);
    const worker = new Worker(`ops-redis-${randomBytes(4).toString('hex')}`, async () => undefined, {
      connection,
      prefix: stack.config.queuePrefix,
    });
    worker.on('error', () => undefined);
    const opsMetrics = new PromWorkerMetrics();
    cleanups.push(async () => opsMetrics.close());
    const ops = createWorkerOps({
      workers: [worker],
      queues,
      metrics: opsMetrics,
      db: stack.database.db,
      logger,
      health: { pingTimeoutMs: 300 },
    });
    const opsServer = createHttpServer(ops.app);
    const url = `http://127.0.0.1:${await listen(opsServer, 0, '127.0.0.1')}`;
    cleanups.push(
      () => closeServer(opsServer, 500),
      () => worker.close(true),
      async () => connection.disconnect(),
      cut,
    );
    await worker.waitUntilReady();

    expect((await http(`${url}/healthz`)).status).toBe(200);
    expect((await http(`${url}/readyz`)).status).toBe(200);
    await cut();
    // A Redis failover must not restart every worker at once: the PING fails, the consumers still run.
    const live = await http(`${url}/healthz`);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({
      status: 'ok',
      queues: { [worker.name]: { running: true, redis: false, stalled: false } },
    });
    const notReady = await http(`${url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks).toMatchObject({ redis: false, consumers: true, postgres: true });
    expect((await http(`${url}/healthz`)).status).toBe(200);

    await relay.restore();
    await waitFor(
      async () => (await http(`${url}/readyz`)).status === 200,
      15_000,
      'readiness after Redis returned',
      100,
    );
    expect((await http(`${url}/healthz`)).body.queues[worker.name]).toMatchObject({ running: true, redis: true });
  });

  it('liveness fails when runnable jobs wait while the worker runs, starts and finishes nothing for the stall window', async () => {
    const name = `ops-stall-${randomBytes(4).toString('hex')}`;
    const connection = createRedis(stack.config.redisUrl, true);
    const worker = new Worker(name, async () => undefined, { connection, prefix: stack.config.queuePrefix });
    worker.on('error', () => undefined);
    const own = new Queue(name, { connection: redis, prefix: stack.config.queuePrefix });
    // What a dead blocking connection looks like from outside: jobs the worker does not see. They sit under
    // another prefix, and the health check is pointed at them.
    const unseen = new Queue(name, { connection: redis, prefix: `${stack.config.queuePrefix}-unseen` });
    cleanups.push(
      () => worker.close(true),
      () => own.obliterate({ force: true }).then(() => own.close()),
      () => unseen.obliterate({ force: true }).then(() => unseen.close()),
      async () => connection.disconnect(),
    );
    let now = 1_000_000;
    const stallAfterMs = 60_000;
    const health = new WorkerHealth([worker], new Map([[name, unseen]]), { stallAfterMs, now: () => now });
    await worker.waitUntilReady();
    const stalled = async () => (await health.liveness()).queues[name]!.stalled;

    now += stallAfterMs; // idle a long time, but nothing waits: fine
    expect(await health.liveness()).toMatchObject({
      ok: true,
      queues: { [name]: { running: true, redis: true, running_jobs: 0, stalled: false } },
    });
    await unseen.add('job', {});
    await unseen.add('urgent', {}, { priority: 1 });
    expect(await stalled()).toBe(false); // backlog first seen now: not yet a stall
    now += stallAfterMs / 2;
    expect(await health.liveness()).toMatchObject({ ok: false, queues: { [name]: { stalled: true } } });

    // Any job the worker starts or finishes is progress.
    await own.add('real', {});
    await waitFor(async () => (await own.getJobCounts('completed')).completed === 1, 15_000, 'the real job', 100);
    expect(await stalled()).toBe(false);
    now += stallAfterMs / 2;
    expect(await stalled()).toBe(false);
    now += stallAfterMs;
    expect(await stalled()).toBe(true);

    // A paused worker is not stuck.
    await worker.pause(true);
    expect(await stalled()).toBe(false);
  });
});
