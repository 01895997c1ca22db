import { sql } from 'kysely';
import { copyInsert, type ColumnTypes } from '../src/bulk';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/* copyInsert writes COPY's text format itself: every value must come back exactly as given. */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('copy_insert');
  await sql`create table copy_probe (id integer, name text, at timestamptz, day date, ok boolean, doc jsonb, ref uuid)`.execute(
    t.db,
  );
});
afterAll(() => t.drop());

const COLUMNS: ColumnTypes = {
  id: 'integer',
  name: 'text',
  at: 'timestamptz',
  day: 'date',
  ok: 'boolean',
  doc: 'jsonb',
  ref: 'uuid',
};

it('round-trips tabs, newlines, carriage returns, backslashes, \\N look-alikes, quotes, unicode and nulls, inside a transaction', async () => {
  const awkward = [
    'tab\there',
    'line\nbreak',
    'cr\rhere',
    'back\\slash',
    '\\N',
    'quote " and \' ',
    'ünïcødé ✈ 🛫',
    '',
    ' lead and trail ',
  ];
  const rows = awkward.map((name, i) => ({
    id: i,
    name,
    at: i % 2 ? new Date('2027-03-10T09:00:00Z') : '2027-03-10T09:00:00-05:00',
    day: '2027-03-10',
    ok: i % 2 === 0,
    doc: { name, nested: { list: [name, null, 1.5, true] }, path: 'C:\\dir\\file' },
    ref: i === 0 ? null : '00000000-0000-4000-8000-00000000000' + (i % 10),
  }));
  rows.push({
    id: 99,
    name: null as unknown as string,
    at: null as unknown as string,
    day: null as unknown as string,
    ok: null as unknown as boolean,
    doc: null as unknown as (typeof rows)[0]['doc'],
    ref: null,
  });
  await t.db.transaction().execute(async (trx) => {
    await copyInsert(trx, 'copy_probe', COLUMNS, rows);
    // Seen inside the transaction, on the same connection.
    const n = await sql<{ n: number }>`select count(*)::int as n from copy_probe`.execute(trx);
    expect(n.rows[0]!.n).toBe(rows.length);
  });
  const back = await sql<{
    id: number;
    name: string | null;
    at: Date | null;
    day: string | null;
    ok: boolean | null;
    doc: unknown;
    ref: string | null;
  }>`
    select id, name, at, day::text as day, ok, doc, ref::text as ref from copy_probe order by id`.execute(t.db);
  expect(back.rows).toEqual(
    rows.map((r) => ({
      id: r.id,
      name: r.name ?? null,
      at: r.at === null ? null : new Date(r.at),
      day: r.day ?? null,
      ok: r.ok ?? null,
      doc: r.doc ?? null,
      ref: r.ref,
    })),
  );
});

it('a failing COPY fails its transaction: nothing of it is stored', async () => {
  await expect(
    t.db.transaction().execute(async (trx) => {
      await copyInsert(trx, 'copy_probe', { id: 'integer' }, [{ id: 1000 }, { id: 'not a number' }]);
    }),
  ).rejects.toThrow();
  const n = await sql<{ n: number }>`select count(*)::int as n from copy_probe where id = 1000`.execute(t.db);
  expect(n.rows[0]!.n).toBe(0);
});

it('refuses text Postgres would store changed (a NUL, a lone surrogate) with a data-exception code, storing nothing', async () => {
  for (const name of ['nul\u0000inside', 'lone \ud800 high', 'lone \udc00 low']) {
    const err = await t.db
      .transaction()
      .execute(async (trx) => {
        await copyInsert(trx, 'copy_probe', { id: 'integer', name: 'text' }, [
          { id: 2000, name: 'fine' },
          { id: 2001, name },
        ]);
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22P05' });
  }
  const n = await sql<{ n: number }>`select count(*)::int as n from copy_probe where id >= 2000`.execute(t.db);
  expect(n.rows[0]!.n).toBe(0);
  // A surrogate pair is well-formed text and round-trips.
  await copyInsert(t.db, 'copy_probe', { id: 'integer', name: 'text' }, [{ id: 2002, name: 'pair 🛫' }]);
  const back = await sql<{ name: string }>`select name from copy_probe where id = 2002`.execute(t.db);
  expect(back.rows[0]!.name).toBe('pair 🛫');
});

it('takes a constant column from `constants`, written as its type is, in every row and over a row’s own value', async () => {
  const ref = '00000000-0000-4000-8000-0000000000aa';
  await t.db.transaction().execute(async (trx) => {
    await copyInsert(
      trx,
      'copy_probe',
      COLUMNS,
      [
        { id: 1001, name: 'a\tb' },
        { id: 1002, name: 'c', ref: '00000000-0000-4000-8000-0000000000bb' },
      ],
      { ref, day: '2027-03-11', doc: { k: 'v\\w' } },
    );
  });
  const { rows } = await sql<{ id: number; name: string; ref: string; day: string; doc: unknown; ok: boolean | null }>`
    select id, name, ref::text, day::text, doc, ok from copy_probe where id in (1001, 1002) order by id`.execute(t.db);
  expect(rows).toEqual([
    { id: 1001, name: 'a\tb', ref, day: '2027-03-11', doc: { k: 'v\\w' }, ok: null },
    { id: 1002, name: 'c', ref, day: '2027-03-11', doc: { k: 'v\\w' }, ok: null },
  ]);
});
