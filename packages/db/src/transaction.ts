import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database';

/**
 * `db.transaction().execute(run)` for a `run` that sends statements ahead on the transaction and awaits them
 * later: when it fails, the rollback waits for those (`queued()`; once the transaction is aborted, each fails at
 * once). Kysely runs a transaction's statements one at a time but sends its rollback straight to the connection:
 * beside a statement still queued it would be a second query on the one pg client, and a statement queued after
 * it would run outside the transaction.
 */
export function transactionAwaitingQueued<T>(
  db: Kysely<Database>,
  queued: () => Iterable<Promise<unknown>>,
  run: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    try {
      return await run(trx);
    } catch (err) {
      await Promise.allSettled(queued());
      // Then a turn on the connection after whatever is still queued there: the rest of a Promise.all that the
      // failure of one of its statements ended early.
      await trx
        .getExecutor()
        .provideConnection(async () => undefined)
        .catch(() => undefined);
      throw err;
    }
  });
}
