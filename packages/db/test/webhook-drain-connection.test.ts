import { sql } from 'kysely';
import { createDb, webhookRepo } from '../src';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/*
 * A webhook drain's connection commits without waiting for the WAL flush (its writes are bookkeeping of
 * deliveries already made), and the connection goes back to the pool as it came: durable commits for
 * whatever uses it next, also after a drain that failed.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('drain_connection');
});
afterAll(() => t.drop());

const setting = async (db: Parameters<typeof webhookRepo.onDrainConnection>[0]) =>
  (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;

it('is off during the drain and on again on the same pooled connection afterwards, after a failure too', async () => {
  // A pool of one: the connection after the drain is the drain's own.
  const db = createDb(t.url, { max: 1 });
  try {
    const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    const before = await pid();
    expect(await setting(db)).toBe('on');
    expect(await webhookRepo.onDrainConnection(db, (conn) => setting(conn))).toBe('off');
    expect(await setting(db)).toBe('on');
    await expect(
      webhookRepo.onDrainConnection(db, async () => {
        throw new Error('the receiver vanished');
      }),
    ).rejects.toThrow('the receiver vanished');
    expect(await setting(db)).toBe('on');
    expect(await pid()).toBe(before);
  } finally {
    await db.destroy();
  }
});
