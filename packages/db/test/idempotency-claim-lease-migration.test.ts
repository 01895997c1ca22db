import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_12_02_0200: an Idempotency-Key's claim has a lease (claimed_at), and keys are purged by their
 * age. The previous release keeps working on the new schema: its claims, written without claimed_at, are
 * stamped by the default, and it answers and frees keys by the key alone. A claim stuck before the migration
 * gets the migration's time, so it can be taken over a lease later. Down drops the column and the index.
 */

const steps = stepwiseDatabase('idempotency_claim_lease_migration');

const BEFORE = '2026_12_02_0100_console_session_enrolment';

const columns = async () =>
  (
    await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_name = 'idempotency_keys' and column_name = 'claimed_at'`.execute(steps.db)
  ).rows.length;

it('stamps claims old and new with claimed_at; the previous release claims, answers and frees keys as before', async () => {
  const { db, migrator } = steps;
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  // As the previous release claims a key (its process then died: never answered).
  const claim = (key: string) =>
    sql<{
      key: string;
    }>`insert into idempotency_keys (airline_id, endpoint, key, request_hash, response_status, response_body)
      values (${airline}, 'POST /crew/action-items', ${key}, 'h', null, null) on conflict do nothing returning key`.execute(
      db,
    );
  await claim('stuck');

  await migrateToLatest(db);
  const stamped = await sql<{ key: string; stamped: boolean }>`select key, claimed_at >= created_at as stamped
    from idempotency_keys`.execute(db);
  expect(stamped.rows).toEqual([{ key: 'stuck', stamped: true }]);
  // The previous release on the new schema: a claim, its answer, a claim freed.
  expect((await claim('answered')).rows).toEqual([{ key: 'answered' }]);
  expect((await claim('answered')).rows).toEqual([]);
  await sql`update idempotency_keys set response_status = 202, response_body = '{}'
    where airline_id = ${airline} and endpoint = 'POST /crew/action-items' and key = 'answered'`.execute(db);
  await claim('freed');
  await sql`delete from idempotency_keys where airline_id = ${airline} and endpoint = 'POST /crew/action-items'
    and key = 'freed' and response_status is null`.execute(db);
  const rows = await sql<{ key: string; response_status: number | null; claimed: boolean }>`select key,
    response_status, claimed_at is not null as claimed from idempotency_keys order by key`.execute(db);
  expect(rows.rows).toEqual([
    { key: 'answered', response_status: 202, claimed: true },
    { key: 'stuck', response_status: null, claimed: true },
  ]);

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await columns()).toBe(0);
  const index = await sql`select 1 from pg_indexes where indexname = 'idempotency_keys_created_ix'`.execute(db);
  expect(index.rows).toEqual([]);
  await migrateToLatest(db);
  expect(await columns()).toBe(1);
});
