import { sql } from 'kysely';
import { bookingRepo, createDb, MAX_PREPARED_TEXTS, PREPARED } from '../src';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/*
 * A statement marked PREPARED runs as a named prepared statement of its connection (parsed and planned once
 * there, not at every call); an unmarked one does not; each distinct marked text gets its own; a marked
 * statement run again on the connection reuses it and still answers with its own parameters.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('prepared');
});
afterAll(() => t.drop());

const preparedOn = async (db: Parameters<typeof bookingRepo.findBooking>[0]) =>
  (
    await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(db)
  ).rows.map((r) => r.statement);

it('prepares the marked statements of the connection only, once per distinct text', async () => {
  // A pool of one: every statement below runs on the same connection.
  const db = createDb(t.url, { max: 1 });
  try {
    expect(await preparedOn(db)).toEqual([]);
    await sql`select ${1}::int as n`.execute(db);
    expect(await preparedOn(db)).toEqual([]);
    const twice = async (n: number) =>
      (await sql<{ n: number }>`${PREPARED} select ${n}::int + 1 as n`.execute(db)).rows[0]!.n;
    expect(await twice(1)).toBe(2);
    expect(await twice(41)).toBe(42);
    expect(await preparedOn(db)).toEqual(['/*crew:prepared*/ select $1::int + 1 as n']);
    // A builder's statement, marked at its end; an item that does not exist is updated as none.
    expect(await bookingRepo.setDisposition(db, '00000000-0000-4000-8000-000000000000', 'FAILED')).toBeUndefined();
    const statements = await preparedOn(db);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(
      /^update "action_items" set .* returning "schedule_id", "priority", "created_at", "type" \/\*crew:prepared\*\/$/,
    );
  } finally {
    await db.destroy();
  }
});

it('keeps running a marked statement with listed result columns after a migration adds a column to its table', async () => {
  const db = createDb(t.url, { max: 1 });
  try {
    await sql`create table prepared_probe (id int primary key, n int not null)`.execute(db);
    await sql`insert into prepared_probe values (1, 0)`.execute(db);
    const bump = async () =>
      (
        await sql<{ n: number }>`${PREPARED} update prepared_probe set n = n + 1 where id = ${1} returning n`.execute(
          db,
        )
      ).rows[0]!.n;
    // Past Postgres's five custom plans: the generic plan is cached.
    for (let i = 1; i <= 6; i++) expect(await bump()).toBe(i);
    await sql`alter table prepared_probe add column note text`.execute(db);
    expect(await bump()).toBe(7);
  } finally {
    await db.destroy();
  }
});

it('prepares at most MAX_PREPARED_TEXTS distinct texts: past them a new text runs unprepared, with its own answer', async () => {
  const db = createDb(t.url, { max: 1 });
  try {
    // Texts that differ as a page's would (its size written into the text): more of them than the bound.
    for (let i = 0; i <= MAX_PREPARED_TEXTS; i++) {
      const n = (await sql<{ n: number }>`${PREPARED} select ${i}::int + ${sql.lit(i)} as n`.execute(db)).rows[0]!.n;
      expect(n).toBe(2 * i);
    }
    const prepared = await preparedOn(db);
    // This file's earlier texts count too (the bound is the process's): never more than the bound on a connection.
    expect(prepared.length).toBeLessThanOrEqual(MAX_PREPARED_TEXTS);
    expect(prepared).not.toContain(`/*crew:prepared*/ select $1::int + ${MAX_PREPARED_TEXTS} as n`);
    expect(prepared).toContain('/*crew:prepared*/ select $1::int + 0 as n');
  } finally {
    await db.destroy();
  }
});
