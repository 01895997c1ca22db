import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { ErrorCode } from '@crew/contracts';
import { ApiError, type Logger } from '@crew/platform';
import { withDeadline } from '@crew/queue';
import { principal } from './guard';

export interface AirlineRateLimitOptions {
  /** Requests a minute per airline (RATE_LIMIT_PER_MINUTE); 0: no limit. */
  perMinute: number;
  /** Redis key prefix, so that deployments sharing a Redis keep their own counts. */
  keyPrefix: string;
  logger: Logger;
}

/** A Redis answer slower than this lets the request through: the limit must never take the API down with it. */
const STORE_DEADLINE_MS = 500;

/**
 * Spec 8 leaves rate limits open: each airline gets `perMinute` requests a minute on the airline API,
 * counted in Redis so that every api replica shares one budget (a fixed one-minute window). Beyond it:
 * 429 RATE_LIMITED in the error envelope with Retry-After and the RateLimit headers. Runs after
 * authentication, so the count is the airline's whatever client or replica it uses; if Redis cannot
 * answer, requests pass (logged) rather than fail.
 */
export function airlineRateLimit(redis: Redis, opts: AirlineRateLimitOptions): RequestHandler | null {
  if (opts.perMinute <= 0) return null;
  const build = () =>
    rateLimit({
      windowMs: 60_000,
      limit: opts.perMinute,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      keyGenerator: (_req, res) => principal(res).airline_id,
      store: new RedisStore({
        prefix: `${opts.keyPrefix}:ratelimit:`,
        sendCommand: (command: string, ...args: string[]) =>
          withDeadline(redis.call(command, ...args) as Promise<RedisReply>, STORE_DEADLINE_MS),
      }),
      passOnStoreError: true,
      logger: {
        error: (err, message) => opts.logger.warn({ err }, message ?? 'rate limit'),
        warn: (err, message) => opts.logger.warn({ err }, message ?? 'rate limit'),
      },
      // The key is the authenticated airline, not an address: the IP checks do not apply.
      validate: { ip: false, trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false },
      handler: (_req, _res, next) =>
        next(
          new ApiError(
            429,
            ErrorCode.RATE_LIMITED,
            `More than ${opts.perMinute} requests a minute for this airline; retry after Retry-After seconds`,
          ),
        ),
    });
  // The store loads its Lua scripts once, when it is made, and keeps a failure for good: so it is made once
  // Redis is connected (until then requests pass, as they do whenever Redis cannot answer).
  let limiter: RequestHandler | null = redis.status === 'ready' ? build() : null;
  if (!limiter) redis.once('ready', () => (limiter = build()));
  return (req, res, next) => (limiter ? limiter(req, res, next) : next());
}
