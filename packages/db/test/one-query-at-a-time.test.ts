import { sql } from 'kysely';
import { copyInsert } from '../src/bulk';
import { transactionAwaitingQueued } from '../src';
import { createTestDatabase, type TestDatabase, watchQueryOverlaps } from '@crew/test-support';

/*
 * A pg client runs one query at a time: one given while another runs is queued by pg, which pg 8 deprecates
 * ("Calling client.query() when the client is already executing a query") and its next major refuses.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('one_query_at_a_time');
  await sql`create table probe (id integer, name text)`.execute(t.db);
});
afterAll(() => t.drop());

const COLUMNS = { id: 'integer', name: 'text' } as const;
const count = async (from: number) =>
  (await sql<{ n: number }>`select count(*)::int as n from probe where id >= ${from}`.execute(t.db)).rows[0]!.n;

describe('a COPY refused for a row Postgres cannot store', () => {
  it('has ended on the connection when copyInsert rejects: the rollback is the only query then', async () => {
    // Many rows before the refused one, so the COPY is well under way when it is refused.
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: 1000 + i,
      name: i === 1500 ? 'nul\u0000inside' : 'fine',
    }));
    for (const refused of [rows, [{ id: 1000, name: 'lone \ud800' }]]) {
      const watch = watchQueryOverlaps();
      const err = await t.db
        .transaction()
        .execute((trx) => copyInsert(trx, 'probe', COLUMNS, refused))
        .catch((e: unknown) => e);
      expect(watch.stop()).toEqual([]);
      expect(err).toMatchObject({ code: '22P05' });
    }
    expect(await count(1000)).toBe(0);
  });
});

describe('transactionAwaitingQueued', () => {
  /** A transaction that sends statements ahead (as the worker's roster write does), then fails as `fail` says. */
  async function failing(
    first: number,
    fail: (trx: Parameters<Parameters<typeof transactionAwaitingQueued>[2]>[0]) => Promise<void>,
  ) {
    const watch = watchQueryOverlaps();
    const queued: Promise<unknown>[] = [];
    const err = await transactionAwaitingQueued(
      t.db,
      () => queued,
      async (trx) => {
        const slow = sql`select pg_sleep(0.05)`.execute(trx);
        const later = (async () => {
          await sql`insert into probe (id, name) values (${first}, ${'queued'})`.execute(trx);
          await sql`insert into probe (id, name) values (${first + 1}, ${'and then'})`.execute(trx);
        })();
        queued.push(slow, later);
        for (const p of queued) p.catch(() => undefined);
        await fail(trx);
      },
    ).catch((e: unknown) => e);
    return { err, overlaps: watch.stop() };
  }

  it('rolls back once what was queued has run: after a refused COPY (the transaction aborted)', async () => {
    const { err, overlaps } = await failing(2000, (trx) =>
      copyInsert(trx, 'probe', COLUMNS, [{ id: 2002, name: 'nul\u0000inside' }]),
    );
    expect(overlaps).toEqual([]);
    expect(err).toMatchObject({ code: '22P05' });
    expect(await count(2000)).toBe(0);
  });

  it('rolls back once what was queued has run: after an error of this process (nothing of it committed)', async () => {
    const { err, overlaps } = await failing(3000, async () => {
      await new Promise((r) => setImmediate(r));
      throw new Error('the plan failed');
    });
    expect(overlaps).toEqual([]);
    expect(err).toMatchObject({ message: 'the plan failed' });
    expect(await count(3000)).toBe(0);
  });

  it('rolls back once the rest of a Promise.all that a failed statement ended has run', async () => {
    const watch = watchQueryOverlaps();
    const err = await transactionAwaitingQueued(
      t.db,
      () => [],
      async (trx) => {
        await Promise.all([
          sql`select 1 / 0`.execute(trx),
          sql`select pg_sleep(0.05)`.execute(trx),
          sql`insert into probe (id, name) values (${4000}, ${'in the same Promise.all'})`.execute(trx),
        ]);
      },
    ).catch((e: unknown) => e);
    expect(watch.stop()).toEqual([]);
    expect(err).toMatchObject({ code: '22012' });
    expect(await count(4000)).toBe(0);
  });
});
