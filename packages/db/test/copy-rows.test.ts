import { sql } from 'kysely';
import { copyLiteral, copyRows } from '../src/copy-rows';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/* copyRows reads COPY's text format itself: every value must come back exactly as stored. */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('copy_rows');
  await sql`create table copy_probe (id integer, name text, doc jsonb)`.execute(t.db);
});
afterAll(() => t.drop());

const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'cr\rhere',
  'back\\slash',
  '\\N',
  'bell\u0007, backspace\b, form feed\f, vertical tab\v',
  'quote \' and "',
  'ünïcødé ✈ 🛫',
  '',
  ' lead and trail ',
];

it('gives back tabs, newlines, control characters, backslashes, \\N look-alikes, quotes, unicode, empty text and nulls', async () => {
  const rows = [...AWKWARD.map((name, i) => ({ id: i, name })), { id: 99, name: null }];
  for (const r of rows)
    await sql`insert into copy_probe (id, name, doc) values (${r.id}, ${r.name}, ${JSON.stringify({ name: r.name })}::jsonb)`.execute(
      t.db,
    );
  const read = await copyRows<[string, string | null, string | null]>(
    t.db,
    sql`select id, name, doc from copy_probe order by id`,
  );
  expect(read.map(([id, name]) => [Number(id), name])).toEqual(rows.map((r) => [r.id, r.name]));
  expect(read.map(([, , doc]) => JSON.parse(doc!) as unknown)).toEqual(rows.map((r) => ({ name: r.name })));
});

it('writes a value in as a literal, whatever quotes and backslashes it holds', async () => {
  for (const name of AWKWARD) {
    const read = await copyRows<[string]>(t.db, sql`select id from copy_probe where name = ${copyLiteral(name)}`);
    expect(read).toEqual([[String(AWKWARD.indexOf(name))]]);
  }
  expect(await copyRows(t.db, sql`select 1 where false`)).toEqual([]);
});

it('refuses a query with bind parameters (COPY takes none), and passes on what Postgres refuses', async () => {
  await expect(copyRows(t.db, sql`select ${'x'}::text`)).rejects.toThrow(/copyLiteral/);
  await expect(copyRows(t.db, sql`select no_such_column from copy_probe`)).rejects.toThrow(/no_such_column/);
  // The connection went back to the pool usable.
  const n = await sql<{ n: number }>`select count(*)::int as n from copy_probe`.execute(t.db);
  expect(n.rows[0]!.n).toBe(AWKWARD.length + 1);
});

it('reads inside a transaction, on its connection', async () => {
  await t.db.transaction().execute(async (trx) => {
    await sql`insert into copy_probe (id, name) values (500, 'in the transaction')`.execute(trx);
    expect(await copyRows(trx, sql`select name from copy_probe where id = 500`)).toEqual([['in the transaction']]);
  });
});

it('reads a result of many chunks whole: rows, escapes and multi-byte characters split across the chunks come back as stored', async () => {
  // Rows of about 300 bytes, nearly all of them multi-byte characters: 5,000 of them arrive in many socket chunks,
  // with rows and characters cut at the chunks' edges.
  await sql`insert into copy_probe (id, name)
    select 1000 + g, repeat('ü✈🛫\t\\', 20 + g % 7) || E'\n' || g from generate_series(1, 5000) g`.execute(t.db);
  const expected = await sql<{ id: number; name: string }>`
    select id, name from copy_probe where id > 1000 order by id`.execute(t.db);
  const read = await copyRows<[string, string]>(t.db, sql`select id, name from copy_probe where id > 1000 order by id`);
  expect(read).toHaveLength(5000);
  expect(read).toEqual(expected.rows.map((r) => [String(r.id), r.name]));

  // One row longer than many chunks, between two short ones.
  const long = `${'ü✈\t'.repeat(60_000)}end`;
  await sql`insert into copy_probe (id, name) values (9001, 'before'), (9002, ${long}), (9003, 'after')`.execute(t.db);
  expect(await copyRows(t.db, sql`select id, name from copy_probe where id > 9000 order by id`)).toEqual([
    ['9001', 'before'],
    ['9002', long],
    ['9003', 'after'],
  ]);
});
