import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_12_04_0700: a webhook endpoint's failing run ends when its last waiting delivery is given up.
 * Releases before it left the run open then, so an endpoint quiet since (failing_since days ago, nothing PENDING)
 * was disabled by its next single failure. The migration ends those runs; an endpoint with a delivery still
 * waiting keeps its run. Down changes nothing.
 */

const steps = stepwiseDatabase('webhook_idle_failing_runs_migration');

const BEFORE = '2026_12_03_0600_reconciling_invoices_index';

it('ends the failing run of an endpoint with nothing pending; one with a pending delivery keeps it', async () => {
  const { db, migrator } = steps;
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Hook Air', 'HK')`.execute(db);
  const endpoint = async (name: string, daysFailing: number, status: 'PENDING' | 'FAILED') => {
    const id = randomUUID();
    await sql`insert into webhook_endpoints (endpoint_id, airline_id, url, event_types, secret_enc, failing_since)
      values (${id}, ${airline}, ${`https://hooks.example.com/${name}`}, ${['webhook.test']}, 'v1.x',
        now() - ${daysFailing} * interval '1 day')`.execute(db);
    const event = await sql<{ event_id: string; seq: string }>`insert into webhook_events (airline_id, type, data)
      values (${airline}, 'webhook.test', '{}') returning event_id, seq`.execute(db);
    await sql`insert into webhook_deliveries (endpoint_id, event_id, event_seq, status, attempts)
      values (${id}, ${event.rows[0]!.event_id}, ${event.rows[0]!.seq}, ${status}, 16)`.execute(db);
    return id;
  };
  const quiet = await endpoint('quiet', 8, 'FAILED');
  const busy = await endpoint('busy', 3, 'PENDING');

  await migrateToLatest(db);
  const rows = await sql<{
    endpoint_id: string;
    failing: boolean;
  }>`select endpoint_id, failing_since is not null as failing
    from webhook_endpoints`.execute(db);
  expect(Object.fromEntries(rows.rows.map((r) => [r.endpoint_id, r.failing]))).toEqual({
    [quiet]: false,
    [busy]: true,
  });

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
});
