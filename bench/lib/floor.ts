/**
 * The floor: what the bare tools take for the work one roster submission implies, on this machine, in this
 * run — JSON.parse of the body, a Postgres COPY of as many rows, a BullMQ addBulk + drain of as many jobs.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Queue, Worker } from 'bullmq';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createRedis } from '@crew/queue';
import { trackChild } from './processes';

export interface ParseFloor {
  /** Median of `runs` parses of the same string. */
  ms: number;
  runs: number[];
}

export function measureParse(body: string, runs = 3): ParseFloor {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const parsed: unknown = JSON.parse(body);
    times.push(performance.now() - t);
    if (!parsed) throw new Error('empty body');
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { ms: sorted[Math.floor(sorted.length / 2)]!, runs: times };
}

export interface CopyFloor {
  rows: number;
  bytes: number;
  ms: number;
}

/**
 * COPY … FROM STDIN of `rows` rows (a leg/layover/action-item-like shape: key, employee, pairing, date,
 * sequence, station, classification) into a fresh logged scratch table of the bench database. The text is
 * built before the clock starts; the time covers streaming it and Postgres storing it (COPY's completion).
 */
export async function measureCopy(databaseUrl: string, rows: number, label: string): Promise<CopyFloor> {
  const chunks: string[] = [];
  let bytes = 0;
  const CHUNK_ROWS = 5000;
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows, start + CHUNK_ROWS); i++) {
      const emp = `E${String(100000 + (i % 15000)).padStart(6, '0')}`;
      const pairing = `XY${String(i % 20000).padStart(6, '0')}`;
      const day = `2027-03-${String(1 + (i % 28)).padStart(2, '0')}`;
      lines.push(`${emp}|${pairing}|${day}|${i % 7}\t${emp}\t${pairing}\t${day}\t${i % 7}\tJFK\tNEW\n`);
    }
    const chunk = lines.join('');
    bytes += Buffer.byteLength(chunk);
    chunks.push(chunk);
  }
  const table = `bench_copy_${label}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'crew-bench-floor' });
  await client.connect();
  try {
    await client.query(
      `create table ${table} (row_key text not null, employee_id text not null, pairing_number text not null, duty_date text not null, seq int not null, station text, classification text)`,
    );
    const t = performance.now();
    await pipeline(Readable.from(chunks), client.query(copyFrom(`copy ${table} from stdin`)));
    const ms = performance.now() - t;
    const count = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
    if (Number(count.rows[0]!.n) !== rows) throw new Error(`COPY stored ${count.rows[0]!.n} rows, expected ${rows}`);
    await client.query(`drop table ${table}`);
    return { rows, bytes, ms };
  } finally {
    await client.end();
  }
}

export interface QueueFloor {
  jobs: number;
  /** Where the no-op consumer ran: in the bench process (sharing its event loop with the producer) or in a child process. */
  consumer: 'in-process' | 'child-process';
  /** addBulk calls (1000 jobs each, the outbox relay's batch) while the worker already consumes. */
  addMs: number;
  /** From the first addBulk until the worker has completed every job. */
  ms: number;
}

function bookingLikeJobs(jobs: number) {
  const airlineId = randomUUID();
  return Array.from({ length: jobs }, () => {
    const bookingId = randomUUID();
    const actionId = randomUUID();
    return {
      name: 'execute-booking',
      data: {
        airline_id: airlineId,
        booking_id: bookingId,
        attempt: 1,
        action_id: actionId,
        operation: 'BOOK',
        ref: `BOOK-${actionId}`,
      },
      opts: { jobId: `book-${bookingId}-BOOK-${actionId}-1-run`, removeOnComplete: true, removeOnFail: true },
    };
  });
}

interface Consumer {
  ready: Promise<void>;
  drained: Promise<void>;
  close(): Promise<void>;
}

function inProcessConsumer(redisUrl: string, prefix: string, name: string, jobs: number): Consumer {
  const connection = createRedis(redisUrl, true);
  let done = 0;
  let resolveDrained: () => void = () => undefined;
  const drained = new Promise<void>((r) => (resolveDrained = r));
  const worker = new Worker(name, async () => undefined, { connection, prefix, concurrency: 50, autorun: false });
  worker.on('error', () => undefined);
  // Counted once BullMQ has recorded the completion, not when the handler returns.
  worker.on('completed', () => {
    if (++done === jobs) resolveDrained();
  });
  void worker.run();
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    drained,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

function childConsumer(redisUrl: string, prefix: string, name: string, jobs: number): Consumer {
  const child = fork(path.join(__dirname, 'drain-worker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      PATH: process.env.PATH ?? '',
      BENCH_REDIS_URL: redisUrl,
      BENCH_PREFIX: prefix,
      BENCH_QUEUE: name,
      BENCH_JOBS: String(jobs),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  trackChild(child);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const failed = exited.then(() => {
    throw new Error("the floor's consumer process exited early");
  });
  failed.catch(() => undefined);
  const ready = new Promise<void>((resolve) => child.on('message', (m) => m === 'ready' && resolve()));
  const drained = new Promise<void>((resolve) =>
    child.on('message', (m) => typeof m === 'object' && m !== null && resolve()),
  );
  return {
    ready: Promise.race([ready, failed]),
    drained: Promise.race([drained, failed]),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        if (child.connected) child.send('stop');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * BullMQ addBulk of `jobs` booking-like jobs (the service's job data shape and deterministic ids), batches
 * of 1000, drained by a no-op Worker with concurrency 50, under a scratch queue name of the bench's prefix.
 * Completed jobs are removed (removeOnComplete: true), the cheapest setting. The consumer runs in a child
 * process (like the service's worker) or in the bench process itself.
 */
export async function measureQueue(
  redisUrl: string,
  prefix: string,
  jobs: number,
  consumerKind: QueueFloor['consumer'],
): Promise<QueueFloor> {
  const name = `bench-floor-${randomBytes(4).toString('hex')}`;
  const producer = createRedis(redisUrl);
  const queue = new Queue(name, { connection: producer, prefix });
  const payloads = bookingLikeJobs(jobs);
  const consumer =
    consumerKind === 'child-process'
      ? childConsumer(redisUrl, prefix, name, jobs)
      : inProcessConsumer(redisUrl, prefix, name, jobs);
  try {
    await queue.waitUntilReady();
    await consumer.ready;
    const t = performance.now();
    for (let i = 0; i < payloads.length; i += 1000) await queue.addBulk(payloads.slice(i, i + 1000));
    const addMs = performance.now() - t;
    if (jobs > 0) await consumer.drained;
    const ms = performance.now() - t;
    return { jobs, consumer: consumerKind, addMs, ms };
  } finally {
    await consumer.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    producer.disconnect();
  }
}

export interface RosterFloor {
  parseMs: number;
  copyMs: number;
  /** parseMs + copyMs. */
  ms: number;
  rows: number;
  bytes: number;
}

/**
 * The roster floor, measured `runs` times (the least counts): JSON.parse of the submitted body + COPY … FROM
 * STDIN (text format) of `rows` rows into a fresh table (airline_id uuid, schedule_id uuid, employee_id text,
 * pairing_number text, duty_date date, seq int, station text, kind text, payload jsonb) with a short JSON
 * object in payload. No BullMQ. The COPY text is built before its clock starts; each run uses a new table.
 */
/**
 * Flushes the WAL's dirty pages before a timed run, as pgbench does: otherwise the WAL of the runs before it
 * (the floor's COPYs, an earlier submission) can trigger a checkpoint in the middle of it, whose full-page
 * images and writes land on whichever run happens to be going then. Needs superuser or pg_checkpoint.
 */
export async function checkpoint(client: Pick<pg.Client, 'query'>): Promise<void> {
  await client.query('checkpoint');
}

export async function measureRosterFloor(
  databaseUrl: string,
  body: string,
  rows: number,
  runs = 3,
): Promise<{ best: RosterFloor; all: RosterFloor[] }> {
  const airline = randomUUID();
  const schedule = randomUUID();
  const kinds = ['LEG', 'LAYOVER', 'LAYOVER_NIGHT', 'DEADHEAD'];
  const chunks: string[] = [];
  let bytes = 0;
  for (let start = 0; start < rows; start += 5000) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows, start + 5000); i++) {
      const emp = `E${String(100000 + (i % 15000)).padStart(6, '0')}`;
      const day = `2027-03-${String(1 + (i % 28)).padStart(2, '0')}`;
      const kind = kinds[i % 4]!;
      lines.push(
        `${airline}\t${schedule}\t${emp}\tXY${String(i % 20000).padStart(6, '0')}\t${day}\t${i % 7}\tJFK\t${kind}\t{"p": "P${1 + (i % 4)}", "t": "${day}T10:00:00-05:00"}\n`,
      );
    }
    const chunk = lines.join('');
    bytes += Buffer.byteLength(chunk);
    chunks.push(chunk);
  }
  const all: RosterFloor[] = [];
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'crew-bench-floor' });
  await client.connect();
  try {
    for (let r = 0; r < runs; r++) {
      await checkpoint(client);
      let t = performance.now();
      const parsed: unknown = JSON.parse(body);
      const parseMs = performance.now() - t;
      if (!parsed) throw new Error('empty body');
      const table = `bench_floor_${randomBytes(4).toString('hex')}`;
      await client.query(
        `create table ${table} (airline_id uuid, schedule_id uuid, employee_id text, pairing_number text, duty_date date, seq int, station text, kind text, payload jsonb)`,
      );
      t = performance.now();
      await pipeline(Readable.from(chunks), client.query(copyFrom(`copy ${table} from stdin`)));
      const copyMs = performance.now() - t;
      const count = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
      if (Number(count.rows[0]!.n) !== rows) throw new Error(`COPY stored ${count.rows[0]!.n} rows, expected ${rows}`);
      await client.query(`drop table ${table}`);
      all.push({ parseMs, copyMs, ms: parseMs + copyMs, rows, bytes });
    }
  } finally {
    await client.end();
  }
  const best = all.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { best, all };
}
