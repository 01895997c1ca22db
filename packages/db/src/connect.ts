import { Kysely, Migrator, PostgresDialect, sql, type MigrationResultSet } from 'kysely';
import { inspect } from 'node:util';
import pg from 'pg';
import type { Database } from './database';
import { migrations } from './migrations';
import { PreparingClient } from './prepared';
import { parseTimestamptz } from './timestamptz';

// int8 ids and counts fit in a JS number; numeric money amounts are read as numbers; dates stay 'YYYY-MM-DD';
// timestamptz read without regular expressions in the common case.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(1082, (v) => v);
pg.types.setTypeParser(1184, parseTimestamptz);

export interface DbOptions {
  max?: number;
  applicationName?: string;
  /**
   * How long a statement may wait for its answer before it fails and its connection is closed (node-postgres's
   * client-side `query_timeout`); none by default. A server that stopped answering without closing the
   * connection (a failover, a partition dropping packets) otherwise holds the statement until TCP gives up,
   * about 15 minutes. Only for pools whose every statement is short: not the worker's (a roster diff's COPYs,
   * invoice reconciliation) and never migrations.
   */
  queryTimeoutMs?: number;
  /** Longest a new connection, or a wait for a pooled one, may take (default CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

/**
 * Longest a new connection, or a wait for a pooled one when all are in use, may take by default (then "timeout
 * exceeded when trying to connect"). Generous: the worker runs more booking tasks at once than its pool has
 * connections, beside roster diffs holding theirs for seconds, and a wait cut short fails the job.
 */
export const CONNECT_TIMEOUT_MS = 30_000;

/**
 * The pools of the api and auth, which answer requests: a new connection, or a free one, within 5 s, and a
 * statement unanswered for 10 s fails and its connection is dropped; the request then answers 503. Their
 * longest statements (a roster's intake, an invoice's lines) take about a second.
 */
export const SERVING_DB = { connectTimeoutMs: 5000, queryTimeoutMs: 10_000 } as const satisfies DbOptions;

export function createDb(url: string, options: DbOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'crew-travel',
    Client: PreparingClient,
    // Bounds both a new connection and the wait for a pooled one when all are in use.
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    // An idle connection whose server vanished without a FIN is probed after 10 s instead of kept for hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
  });
  // A client losing its connection must not crash the process. pg emits 'error' on the client; the pool
  // listens only while the client is idle (and re-emits it on the pool), so every client also gets its own
  // listener for while it is checked out (a transaction, the worker's advisory-lock connection). The
  // interrupted query rejects, the client is no longer queryable and the pool discards it on release.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Runs `fn` on a client of the server's `postgres` database, where databases are created, copied and dropped
 * (the database `url` names may not exist yet), and closes it.
 */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  // Its queries reject when the connection dies; without a listener the 'error' event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The database name `url` names. */
export const databaseNameOf = (url: string): string => decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));

/** `name` as an SQL identifier. */
export const quotedIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Creates the database named in `url` when it does not exist yet (DESIGN section 1). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  if (!name) throw new Error('DATABASE_URL names no database');
  await withAdminClient(url, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount !== 0) return;
    try {
      await client.query(`create database ${quotedIdentifier(name)}`);
    } catch (err) {
      // Another process created it first.
      if ((err as { code?: string }).code !== '42P04') throw err;
    }
  });
}

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/**
 * Migrations the database has run that this code does not know: a newer release has migrated it (a rollback,
 * or a pod of the previous release restarting during a rollout).
 */
async function migrationsAheadOfCode(db: Kysely<Database>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.map((r) => r.name).filter((name) => !Object.hasOwn(migrations, name));
  } catch (err) {
    // A new database: no migration table yet.
    if ((err as { code?: string }).code === '42P01') return [];
    throw err;
  }
}

/**
 * Applies every pending migration; kysely's Migrator serialises concurrent runs with a lock. A database a newer
 * release has migrated further is current for this one when it holds every migration this code knows:
 * migrations are additive, so the previous release runs on the newer schema (a rollback is `rollout undo`).
 * kysely would refuse it ("previously executed migration … is missing"), and the previous release's pods would
 * never start.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResultSet> {
  const ahead = await migrationsAheadOfCode(db);
  if (ahead.length > 0) {
    const missing = (await migrator(db).getMigrations()).filter((m) => m.executedAt === undefined);
    if (missing.length === 0) return { results: [] };
    // A known migration never run beside newer unknown ones: not a schema this code can trust, nor add to.
    throw new Error(
      `the database has migrations this release does not know (${ahead.join(', ')}) but not ${missing
        .map((m) => m.name)
        .join(', ')} of its own: not a release's schema`,
    );
  }
  const result = await migrator(db).migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(inspect(result.error));
  return result;
}

/** True when every known migration has been applied (readiness). */
export async function isMigrated(db: Kysely<Database>): Promise<boolean> {
  const all = await migrator(db).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}

/** How long a readiness probe waits for Postgres to answer before it reports it unreachable. */
export const READINESS_DEADLINE_MS = 2000;

/**
 * True when Postgres answers `select 1` within `ms` (readiness): a server that stopped answering without closing
 * the connection (packets dropped) is as unready as one refusing connections.
 */
export async function postgresAnswers(db: Kysely<Database>, ms = READINESS_DEADLINE_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const answer = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
}

/** Drops a database (tests); terminates its connections first. */
export async function dropDatabase(url: string): Promise<void> {
  await withAdminClient(url, (client) =>
    client.query(`drop database if exists ${quotedIdentifier(databaseNameOf(url))} with (force)`),
  );
}

/** What every process does at start: create the database if missing, connect, apply pending migrations. */
export async function openDatabase(url: string, options: DbOptions = {}): Promise<Kysely<Database>> {
  await ensureDatabase(url);
  // Migrations run on a connection of their own, without the pool's statement time limit (an index build).
  const migrating = createDb(url, { applicationName: options.applicationName, max: 1 });
  try {
    await migrateToLatest(migrating);
  } finally {
    await migrating.destroy();
  }
  return createDb(url, options);
}
