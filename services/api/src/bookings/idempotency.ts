import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@crew/contracts';
import { type Db, idempotencyRepo } from '@crew/db';
import { ApiError, type Reply } from '@crew/platform';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key (DESIGN section 6): per airline and endpoint, kept 24 h. The first request claims the key
 * (a primary-key insert, so two concurrent requests cannot both win) and stores its answer; a repeat with
 * the same body replays it, waiting for the first to finish if needed; another body is 422.
 */
export async function withIdempotency(
  db: Db,
  airlineId: string,
  endpoint: string,
  key: string | undefined,
  body: unknown,
  run: () => Promise<Reply>,
): Promise<Reply> {
  if (key === undefined) return run();
  if (!KEY.test(key))
    throw ApiError.invalid('Idempotency-Key must be 1-255 visible ASCII characters', [
      { field: 'header.Idempotency-Key', issue: 'invalid' },
    ]);
  const hash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  if (await idempotencyRepo.claimIdempotencyKey(db, airlineId, endpoint, key, hash)) {
    try {
      const reply = await run();
      await idempotencyRepo.completeIdempotencyKey(db, airlineId, endpoint, key, reply.status, reply.body ?? null);
      return reply;
    } catch (err) {
      // A refusal is an answer too: the same request gets it again. Anything else frees the key for a retry.
      if (err instanceof ApiError && err.status < 500)
        await idempotencyRepo.completeIdempotencyKey(db, airlineId, endpoint, key, err.status, err.toEnvelope());
      else await idempotencyRepo.releaseIdempotencyKey(db, airlineId, endpoint, key);
      throw err;
    }
  }
  for (let waited = 0; ; waited += 100) {
    const row = await idempotencyRepo.findIdempotencyKey(db, airlineId, endpoint, key);
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
    if (waited > 30_000)
      throw new ApiError(409, ErrorCode.CONFLICT, 'A request with this Idempotency-Key is still being processed');
    await sleep(100);
  }
}
