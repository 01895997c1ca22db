import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@crew/contracts';
import { type Db, type DbOrTrx, idempotencyRepo } from '@crew/db';
import { ApiError, type Reply } from '@crew/platform';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * How long a claim holds its key unanswered. Past it, the claiming process is taken for dead (killed, out of
 * memory, its node drained) and a retry takes the key over. Longer than these endpoints' slowest request, about
 * 40 s: a commit's offer looked up at the sandbox (three tries of up to 5 s, each after a connect check) and then
 * Duffel (20 s).
 */
const CLAIM_LEASE_MS = 60_000;
/** A repeat waits this long for the first request's answer, then gets 409 and retries later. */
const WAIT_MS = 30_000;

type IdempotencyKey = { db: Db; airlineId: string; endpoint: string; key: string };

/**
 * Stores the request's answer in the request's own transaction (the last thing it does there) and hands the
 * reply back: the answer commits with the work or not at all, so an error or a crash past the commit leaves
 * the key answered and a retry replays it, instead of doing the work again. Refused (409, rolling the work back)
 * when the claim was taken over meanwhile: the repeat that took it does the work. Without a key, only the reply.
 */
export type Answer = (trx: DbOrTrx, reply: Reply) => Promise<Reply>;

const unkeyed: Answer = async (_trx, reply) => reply;

/**
 * Idempotency-Key (DESIGN section 6): per airline and endpoint, kept 24 h. The first request claims the key
 * (a primary-key insert, so two concurrent requests cannot both win) and stores its answer with `answer`, in
 * the transaction that does its work (a refusal, which wrote nothing, after it); a repeat with
 * the same body replays it, waiting for the first to finish if needed; another body is 422. A claim whose
 * lease is over is taken over by one repeat (a conditional update), which does the work again.
 */
export async function withIdempotency(
  db: Db,
  airlineId: string,
  endpoint: string,
  key: string | undefined,
  body: unknown,
  run: (answer: Answer) => Promise<Reply>,
): Promise<Reply> {
  if (key === undefined) return run(unkeyed);
  if (!KEY.test(key))
    throw ApiError.invalid('Idempotency-Key must be 1-255 visible ASCII characters', [
      { field: 'header.Idempotency-Key', issue: 'invalid' },
    ]);
  const hash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  const k: IdempotencyKey = { db, airlineId, endpoint, key };
  const claim = await idempotencyRepo.claimIdempotencyKey(db, airlineId, endpoint, key, hash);
  if (claim !== null) return answer(k, claim, run);
  for (let waited = 0; ; waited += 100) {
    const row = await idempotencyRepo.findIdempotencyKey(db, airlineId, endpoint, key, CLAIM_LEASE_MS);
    if (!row) return withIdempotency(db, airlineId, endpoint, key, body, run);
    if (row.request_hash !== hash) {
      throw ApiError.unprocessable(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        'This Idempotency-Key was used with a different request body',
        [{ field: 'header.Idempotency-Key', issue: 'reused with another body' }],
      );
    }
    if (row.response_status !== null)
      return { status: row.response_status, body: row.response_body, headers: { 'Idempotent-Replayed': 'true' } };
    // Its process died before answering: one repeat takes the claim over, the others go on waiting for it.
    if (row.lease_over) {
      const taken = await idempotencyRepo.takeOverIdempotencyKey(db, airlineId, endpoint, key, hash, CLAIM_LEASE_MS);
      if (taken !== null) return answer(k, taken, run);
    }
    if (waited > WAIT_MS)
      throw new ApiError(409, ErrorCode.CONFLICT, 'A request with this Idempotency-Key is still being processed');
    await sleep(100);
  }
}

/** Runs the request holding the key's claim, which stores its answer in its transaction. */
async function answer(
  { db, airlineId, endpoint, key }: IdempotencyKey,
  claim: string,
  run: (answer: Answer) => Promise<Reply>,
) {
  const store: Answer = async (trx, reply) => {
    const { status, body } = reply;
    if (!(await idempotencyRepo.completeIdempotencyKey(trx, airlineId, endpoint, key, claim, status, body ?? null)))
      throw new ApiError(409, ErrorCode.CONFLICT, 'A request with this Idempotency-Key is still being processed');
    return reply;
  };
  try {
    // Every run stores its reply with `answer`, in the transaction that does its work.
    return await run(store);
  } catch (err) {
    // A refusal is an answer too: the same request gets it again. Anything else frees the key for a retry,
    // unless the answer committed with the work (then neither changes it, and a retry replays it).
    if (err instanceof ApiError && err.status < 500)
      await idempotencyRepo.completeIdempotencyKey(db, airlineId, endpoint, key, claim, err.status, err.toEnvelope());
    else await idempotencyRepo.releaseIdempotencyKey(db, airlineId, endpoint, key, claim);
    throw err;
  }
}
