import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { withDeadline } from '@crew/queue';
import type { ConsoleDeps } from './context';
import { messagePage } from './layout';

export const SIGN_IN_WINDOW_MINUTES = 15;
/** Refused sign-ins allowed per address and e-mail in the window. */
export const SIGN_IN_FAILURES_ALLOWED = 10;
/** Refused sign-ins allowed per e-mail in the window, whatever the addresses (guessing one person's password from many). */
export const SIGN_IN_FAILURES_PER_EMAIL = 30;
/** Wrong authenticator codes allowed per e-mail in the window (a stolen password, the code guessed from many addresses). */
export const TOTP_FAILURES_PER_EMAIL = 10;
/** Refused sign-ins allowed per address in the window, whatever the e-mails (a whole desk behind one address mistypes too). */
export const SIGN_IN_FAILURES_PER_ADDRESS = 100;
const STORE_DEADLINE_MS = 500;

/** Why a sign-in was refused, as the page sets it on `res.locals.signInRefused`. */
export type SignInRefusal = 'unknown_or_wrong_password' | 'totp_missing' | 'totp_wrong';

/** The e-mail field as the page reads it: trimmed, in lower case. */
export function signInEmailOf(req: Request): string {
  const email = (req.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/** The client's address as a key: IPv4 whole, IPv6 by its /56 (one subscriber's prefix). */
const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? '');
/** The e-mail as a key (bounded: a key is never longer than an e-mail can be). */
const emailOf = (req: Request) => signInEmailOf(req).slice(0, 254);

interface Limit {
  /** Names the limit in the audit line (`limit`) and its Redis keys. */
  name: 'address_email' | 'email' | 'totp' | 'address';
  allowed: number;
  key: (req: Request) => string;
  /** Which refusals it counts. */
  counts: (refused: SignInRefusal) => boolean;
}

const LIMITS: readonly Limit[] = [
  {
    name: 'address_email',
    allowed: SIGN_IN_FAILURES_ALLOWED,
    key: (req) => `${addressOf(req)}|${emailOf(req)}`,
    counts: () => true,
  },
  { name: 'email', allowed: SIGN_IN_FAILURES_PER_EMAIL, key: emailOf, counts: () => true },
  // Only a wrong code: it comes after the right password, so no one without the password can spend this count.
  { name: 'totp', allowed: TOTP_FAILURES_PER_EMAIL, key: emailOf, counts: (r) => r === 'totp_wrong' },
  { name: 'address', allowed: SIGN_IN_FAILURES_PER_ADDRESS, key: addressOf, counts: () => true },
];

const refusalOf = (res: Response) => res.locals.signInRefused as SignInRefusal | undefined;

/**
 * Slows password and code guessing, across every api replica (Redis), with four counts of refused sign-ins
 * in SIGN_IN_WINDOW_MINUTES: per address and e-mail, per e-mail whatever the address, wrong authenticator codes
 * per e-mail, and per address whatever the e-mail. When any count is spent, further tries it covers get 429
 * until the window passes. Successful sign-ins are never counted (a whole travel desk behind one address signs
 * in at shift change). If Redis cannot answer, the request passes (logged) rather than lock everyone out.
 */
export function signInLimit(deps: ConsoleDeps): RequestHandler {
  const build = (limit: Limit): RequestHandler =>
    rateLimit({
      windowMs: SIGN_IN_WINDOW_MINUTES * 60_000,
      limit: limit.allowed,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      skipSuccessfulRequests: true,
      // A refused sign-in answers the form again (200): the page marks it with the reason.
      requestWasSuccessful: (_req, res) => {
        const refused = refusalOf(res);
        return refused === undefined || !limit.counts(refused);
      },
      keyGenerator: limit.key,
      store: new RedisStore({
        prefix: `${deps.config.queuePrefix}:console-sign-in${limit.name === 'address_email' ? '' : `-${limit.name}`}:`,
        sendCommand: (command: string, ...args: string[]) =>
          withDeadline(deps.redis.call(command, ...args) as Promise<RedisReply>, STORE_DEADLINE_MS),
      }),
      passOnStoreError: true,
      logger: {
        error: (err, message) => deps.logger.warn({ err }, message ?? 'console sign-in limit'),
        warn: (err, message) => deps.logger.warn({ err }, message ?? 'console sign-in limit'),
      },
      // X-Forwarded-For is believed from private-network proxies only (TRUSTED_PROXIES, @crew/platform); the keys
      // are built with ipKeyGenerator.
      validate: { trustProxy: false, xForwardedForHeader: false },
      handler: (req, res) => {
        deps.logger.warn(
          { event: 'console_sign_in', outcome: 'rate_limited', limit: limit.name },
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
  // As the airline limit: the stores load their scripts once Redis is connected; until then requests pass.
  let limiters: RequestHandler[] | null = deps.redis.status === 'ready' ? LIMITS.map(build) : null;
  if (!limiters) deps.redis.once('ready', () => (limiters = LIMITS.map(build)));
  return (req, res, next) => {
    const chain = limiters;
    if (!chain) return next();
    // Each in turn; the first that is spent answers 429 and the rest are not asked.
    const run = (i: number): void => {
      if (i === chain.length) return next();
      void chain[i]!(req, res, (err?: unknown) => (err ? next(err) : run(i + 1)));
    };
    run(0);
  };
}
