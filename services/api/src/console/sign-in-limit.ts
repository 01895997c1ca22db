import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { withDeadline } from '@crew/queue';
import type { ConsoleDeps } from './context';
import { messagePage } from './layout';

/** Failed sign-ins allowed per address and e-mail in the window, across every api replica (Redis). */
export const SIGN_IN_FAILURES_ALLOWED = 10;
export const SIGN_IN_WINDOW_MINUTES = 15;
const STORE_DEADLINE_MS = 500;

/**
 * Slows password guessing: after SIGN_IN_FAILURES_ALLOWED refused sign-ins from one address for one e-mail
 * within SIGN_IN_WINDOW_MINUTES, further tries get 429 until the window passes. Successful sign-ins are not
 * counted (a whole travel desk behind one address signs in at shift change). If Redis cannot answer, the
 * request passes (logged) rather than lock everyone out.
 */
export function signInLimit(deps: ConsoleDeps): RequestHandler {
  const build = () =>
    rateLimit({
      windowMs: SIGN_IN_WINDOW_MINUTES * 60_000,
      limit: SIGN_IN_FAILURES_ALLOWED,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      skipSuccessfulRequests: true,
      // A refused sign-in answers the form again (200): the page marks it.
      requestWasSuccessful: (_req, res) => res.locals.signInRefused !== true,
      keyGenerator: (req) => {
        const email = (req.body as Record<string, unknown> | undefined)?.email;
        return `${ipKeyGenerator(req.ip ?? '')}|${typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : ''}`;
      },
      store: new RedisStore({
        prefix: `${deps.config.queuePrefix}:console-sign-in:`,
        sendCommand: (command: string, ...args: string[]) =>
          withDeadline(deps.redis.call(command, ...args) as Promise<RedisReply>, STORE_DEADLINE_MS),
      }),
      passOnStoreError: true,
      logger: {
        error: (err, message) => deps.logger.warn({ err }, message ?? 'console sign-in limit'),
        warn: (err, message) => deps.logger.warn({ err }, message ?? 'console sign-in limit'),
      },
      // X-Forwarded-For is believed from private-network proxies only (TRUSTED_PROXIES, @crew/platform); the key is
      // built with ipKeyGenerator.
      validate: { trustProxy: false, xForwardedForHeader: false },
      handler: (req, res) => {
        deps.logger.warn(
          { event: 'console_sign_in', outcome: 'rate_limited' },
          'console sign-in refused: too many tries',
        );
        messagePage(
          req,
          res,
          429,
          'Too many sign-in attempts',
          `Too many attempts to sign in. Wait ${SIGN_IN_WINDOW_MINUTES} minutes and try again, or ask your airline's console administrator.`,
          { href: '/console/sign-in', label: 'Back to sign in' },
        );
      },
    });
  // As the airline limit: the store loads its scripts once Redis is connected; until then requests pass.
  let limiter: RequestHandler | null = deps.redis.status === 'ready' ? build() : null;
  if (!limiter) deps.redis.once('ready', () => (limiter = build()));
  return (req, res, next) => (limiter ? limiter(req, res, next) : next());
}
