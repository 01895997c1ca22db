/**
 * Booking scheduler: priority lanes, per-airline fair share (both decided by the outbox relay, fairness.ts)
 * and supplier pacing (a 429 with Retry-After pauses that supplier's queue; the booking still ends CONFIRMED).
 * The order tests run a BullMQ worker of concurrency 1 whose processor only records which task it started.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'bullmq';
import { outboxRepo } from '@crew/db';
import { createLogger } from '@crew/platform';
import {
  ADD_CHUNK,
  bookingJob,
  BOOKING_QUEUES,
  closeQueues,
  createQueues,
  createRedis,
  OutboxRelay,
  sampleLanes,
  type Queues,
  type TaskPriority,
} from '@crew/queue';
import { PromWorkerMetrics } from '../src/operability/metrics';
import {
  bookingAccount,
  contractStations,
  createTestDatabase,
  http,
  onboard,
  removeKeys,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
  type TestDatabase,
  waitFor,
} from '@crew/test-support';

jest.setTimeout(60_000);

describe('lanes and fair share (the order booking tasks start in)', () => {
  let database: TestDatabase;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = createRedis(redisUrl);
  const consumer = createRedis(redisUrl, true);
  let queues: Queues;
  let relay: OutboxRelay;
  let prefix: string;
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase('lanes');
  });
  beforeEach(() => {
    prefix = `t${randomBytes(5).toString('hex')}`;
    queues = createQueues(redis, prefix);
    relay = new OutboxRelay(database.db, queues, createLogger('lanes', 'silent'), 60_000);
  });
  afterEach(async () => {
    await relay.close();
    await closeQueues(queues);
    // Each test's queues live under a prefix of their own: nothing is left in Redis.
    await removeKeys(redis, prefix);
  });
  afterAll(async () => {
    redis.disconnect();
    consumer.disconnect();
    await database.drop();
  });

  /** `n` hotel tasks of one airline, written to the outbox and relayed as the api or worker would. */
  async function enqueue(airline: string, priority: TaskPriority | undefined, n: number): Promise<void> {
    const jobs = Array.from({ length: n }, () =>
      bookingJob({
        airline_id: airline,
        booking_id: `b${++seq}`,
        attempt: 1,
        operation: 'BOOK',
        ref: `BOOK-${seq}`,
        type: 'HOTEL',
        ...(priority ? { priority } : {}),
      }),
    );
    await database.db.transaction().execute((trx) => outboxRepo.addToOutbox(trx, jobs));
    await relay.drain();
  }

  /** A worker of concurrency 1 that records (airline, priority) of each task as it starts, taking `ms` per task. */
  function recorder(ms: number) {
    const started: string[] = [];
    const worker = new Worker(
      'bookings',
      async (job) => {
        started.push(`${job.data.airline_id}:${job.data.priority ?? '-'}`);
        if (ms) await sleep(ms);
      },
      { connection: consumer, prefix, concurrency: 1 },
    );
    return { started, worker };
  }

  /** Tasks start every few ms: look often. */
  const until = (check: () => boolean, what: string) => waitFor(check, 30_000, what, 10);

  it('a P1 task queued after 500 P4 tasks of another airline starts before them', async () => {
    const { started, worker } = recorder(2);
    try {
      await enqueue('A', 'P4', 500);
      await until(() => started.length >= 5, 'five tasks to start');
      await enqueue('B', 'P1', 1);
      const before = started.length;
      await until(() => started.includes('B:P1'), 'the P1 task to start');
      const at = started.indexOf('B:P1');
      // Started as soon as the task running when it was queued finished.
      expect(at).toBeLessThanOrEqual(before + 1);
      await until(() => started.length === 501, 'every task to start');
      expect(started.filter((s) => s === 'A:P4')).toHaveLength(500);
      expect(started.slice(at + 1).every((s) => s === 'A:P4')).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('two airlines with backlogs alternate; a third arriving later is not queued behind them; lanes go most urgent first', async () => {
    await enqueue('A', 'P3', 200);
    await enqueue('B', 'P3', 100);
    await enqueue('A', 'P2', 3);
    await enqueue('C', undefined, 1); // a task written before lanes existed: P3
    const { started, worker } = recorder(0);
    try {
      await until(() => started.length === 304, 'every task to start');
      expect(started.slice(0, 3)).toEqual(['A:P2', 'A:P2', 'A:P2']);
      const p3 = started.slice(3);
      // Tie of equal tags: A, B, C, then A and B alternate until B's backlog is done, then A's rest.
      expect(p3.slice(0, 3)).toEqual(['A:P3', 'B:P3', 'C:-']);
      for (let i = 3; i < 3 + 2 * 99; i += 2) expect(p3.slice(i, i + 2)).toEqual(['A:P3', 'B:P3']);
      expect(p3.slice(3 + 2 * 99).every((s) => s === 'A:P3')).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('relays a batch in addBulk calls of at most ADD_CHUNK jobs (the event loop is free between them), each job in its own fair place', async () => {
    const addBulk = jest.spyOn(queues.bookings, 'addBulk');
    // One outbox batch: A's 150 tasks, then B's 100. Fair places alternate A and B, across the calls' edges.
    const jobs = [...Array.from({ length: 150 }, () => 'A'), ...Array.from({ length: 100 }, () => 'B')].map((airline) =>
      bookingJob({
        airline_id: airline,
        booking_id: `b${++seq}`,
        attempt: 1,
        operation: 'BOOK',
        ref: `BOOK-${seq}`,
        type: 'HOTEL',
        priority: 'P3',
      }),
    );
    await database.db.transaction().execute((trx) => outboxRepo.addToOutbox(trx, jobs));
    await relay.drain();
    expect(addBulk.mock.calls.map(([added]) => added.length)).toEqual([ADD_CHUNK, ADD_CHUNK, 250 - 2 * ADD_CHUNK]);
    const { started, worker } = recorder(0);
    try {
      await until(() => started.length === 250, 'every task to start');
      for (let i = 0; i < 200; i += 2) expect(started.slice(i, i + 2)).toEqual(['A:P3', 'B:P3']);
      expect(started.slice(200).every((s) => s === 'A:P3')).toBe(true);
    } finally {
      await worker.close();
      addBulk.mockRestore();
    }
  });

  it("relays the outbox most urgent lane first: a P1 task written behind 1,500 P3 tasks is in the relay's first call", async () => {
    const addBulk = jest.spyOn(queues.bookings, 'addBulk');
    try {
      const backlog = Array.from({ length: 1500 }, () =>
        bookingJob({
          airline_id: 'A',
          booking_id: `b${++seq}`,
          attempt: 1,
          operation: 'BOOK',
          ref: `BOOK-${seq}`,
          type: 'HOTEL',
          priority: 'P3',
        }),
      );
      const urgent = bookingJob({
        airline_id: 'B',
        booking_id: `b${++seq}`,
        attempt: 1,
        operation: 'BOOK',
        ref: `BOOK-${seq}`,
        type: 'HOTEL',
        priority: 'P1',
      });
      await database.db.transaction().execute((trx) => outboxRepo.addToOutbox(trx, backlog));
      await database.db.transaction().execute((trx) => outboxRepo.addToOutbox(trx, [urgent]));
      await relay.drain();
      const relayed = addBulk.mock.calls.flatMap(([added]) => added.map((j) => j.opts?.jobId));
      expect(relayed[0]).toBe(urgent.job_id);
      // Within a lane, in the order written.
      expect(relayed.slice(1)).toEqual(backlog.map((j) => j.job_id));
    } finally {
      addBulk.mockRestore();
    }
  });

  it('an airline arriving while another drains its backlog starts at once, then shares the lane evenly', async () => {
    const { started, worker } = recorder(2);
    try {
      await enqueue('A', 'P3', 400);
      await until(() => started.length >= 100, 'a hundred tasks to start');
      await enqueue('B', 'P3', 10);
      const queuedAt = started.length;
      await until(() => started.filter((s) => s.startsWith('B')).length === 10, "B's ten tasks to start");
      const first = started.findIndex((s) => s.startsWith('B'));
      const last = started.lastIndexOf('B:P3');
      // B starts at once (it is not queued behind A's ~300 left) and its ten tasks take about twenty starts:
      // one A task per B task.
      expect(first).toBeLessThanOrEqual(queuedAt + 2);
      expect(last - first).toBeLessThanOrEqual(21);
      expect(started.length).toBeLessThan(410);
    } finally {
      await worker.close();
    }
  });

  it('/metrics: depth and oldest age per lane and per airline (top 10 airlines, the rest as "other"), sampled from Redis', async () => {
    await enqueue('A', 'P4', 30);
    await enqueue('B', 'P1', 2);
    for (let i = 0; i < 12; i++) await enqueue(`small-${String(i).padStart(2, '0')}`, 'P3', 1);
    // Sampled as 1.1 s after the tasks were queued: the clock is sampleLanes' argument, not a wait.
    const snapshot = await sampleLanes(
      BOOKING_QUEUES.map((q) => queues[q]),
      Date.now() + 1100,
      20,
    );
    const lane = (p: string) => snapshot.lanes.find((l) => l.queue === 'bookings' && l.priority === p)!;
    expect([lane('P1').waiting, lane('P2').waiting, lane('P3').waiting, lane('P4').waiting]).toEqual([2, 0, 12, 30]);
    expect(lane('P4').oldestSeconds).toBeGreaterThanOrEqual(1);
    expect(lane('P2').oldestSeconds).toBe(0);
    // A's 30 P4 tasks are counted from its fair-share tags beyond the 20 sampled.
    expect(snapshot.airlines.find((a) => a.airline_id === 'A')).toMatchObject({ priority: 'P4', waiting: 30 });
    expect(snapshot.airlines.find((a) => a.airline_id === 'B')).toMatchObject({ priority: 'P1', waiting: 2 });

    const metrics = new PromWorkerMetrics();
    metrics.setLanes(snapshot);
    const text = await metrics.registry.metrics();
    expect(text).toContain('crew_booking_lane_tasks{queue="bookings",priority="P4",service="worker"} 30');
    expect(text).toContain('crew_booking_airline_tasks{airline="A",priority="P4",service="worker"} 30');
    expect(text).toContain('crew_booking_airline_tasks{airline="other",priority="P3",service="worker"} 4');
    expect(text.match(/^crew_booking_airline_tasks\{/gm)).toHaveLength(10 + 1);
    metrics.close();
  });
});

describe('supplier pacing', () => {
  let stack: Stack;
  let t: Tenant;
  const email = 'pace@air.test';
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

  beforeAll(async () => {
    stack = await startStack('pacing', { worker: true, sandboxLatencyMs: 5 });
    t = await onboard(stack, {
      name: 'Pace Air',
      carrier: 'PQ',
      scopes: 'events:read events:write schedules:read schedules:write',
      settings: { schedules_access: true },
    });
    await bookingAccount(stack, t, email);
    await contractStations(stack, t, ['JFK']);
  });
  afterAll(() => stack.close());

  const settled = (id: string) => settledBooking(stack, t.accessToken, id, 20_000);
  const paces = () => stack.logLines.filter((l) => l.includes('supplier asked to slow down')).length;

  it('a supplier answering 429 with Retry-After pauses that lane; the bookings end CONFIRMED, not FAILED', async () => {
    const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
      method: 'POST',
      body: { operation: 'hotel.book', outcome: 'rate_limited', retry_after_s: 1, count: 2 },
    });
    expect(armed.status).toBe(201);
    expect(armed.body).toMatchObject({ outcome: 'rate_limited', retry_after_s: 1 });
    const started = Date.now();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await api('/crew/action-items', {
        method: 'POST',
        body: {
          type: 'HOTEL',
          classification: 'NEW_LAYOVER',
          source: 'IROP',
          irop_ref: `IR-${n}`,
          priority: 'P1',
          anchors: { traveller_email: email, pairing_number: `PACE${n}` },
          hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
        },
      });
      expect(res.status).toBe(202);
      ids.push(res.body.booking_id);
    }
    const bookings = await Promise.all(ids.map((id) => settled(id)));
    expect(bookings.map((b) => b.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    expect(bookings.map((b) => b.retry_count)).toEqual([0, 0, 0]);
    // The lane waited for Retry-After (1 s) before the supplier was called again, and not much longer.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await http(`${stack.sandboxUrl}/_control/faults`)).body.faults).toEqual([]);
    expect(stack.logLines.some((l) => l.includes('supplier asked to slow down'))).toBe(true);
  });

  it('while the hotel supplier is paused, flight tasks (their own queue) keep running', async () => {
    await http(`${stack.sandboxUrl}/_control/faults`, {
      method: 'POST',
      body: { operation: 'hotel.book', outcome: 'rate_limited', retry_after_s: 3, count: 1 },
    });
    const pacedBefore = paces();
    const hotel = await api('/crew/action-items', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        priority: 'P1',
        anchors: { traveller_email: email, pairing_number: 'LANE-H' },
        hotel: { city: 'JFK', check_in_date: '2027-05-02', num_nights: 1 },
      },
    });
    expect(hotel.status).toBe(202);
    // The hotel queue is paused once its task has met the 429.
    await waitFor(() => paces() > pacedBefore, 10_000, 'the hotel task to meet the 429');
    const t0 = Date.now();
    const flight = await api('/crew/action-items', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        priority: 'P1',
        anchors: { traveller_email: email, pairing_number: 'LANE-F' },
        flight: { from_airport: 'JFK', to_airport: 'LHR', depart_date: '2027-05-02' },
      },
    });
    expect(flight.status).toBe(202);
    const f = await settled(flight.body.booking_id);
    expect(f.status).toBe('CONFIRMED');
    const flightSeconds = (Date.now() - t0) / 1000;
    expect(flightSeconds).toBeLessThan(2);
    expect((await api(`/crew/bookings/${hotel.body.booking_id}`)).body.status).toBe('PENDING');
    expect((await settled(hotel.body.booking_id)).status).toBe('CONFIRMED');
  });
});
