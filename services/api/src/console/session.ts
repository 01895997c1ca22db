import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { ConsoleRole } from '@crew/contracts';
import { consoleUserRepo, type DbOrTrx } from '@crew/db';
import { crossSiteOrigin, safeEqual } from '@crew/platform';
import { CONSOLE_BASE, type ConsoleDeps, type ConsoleSession } from './context';
import { messagePage, sessionOf } from './layout';
import { randomToken, tokenHash } from './secrets';

/*
 * Console sessions: the cookie holds a random session id (the database keeps its hash), httpOnly,
 * SameSite=Strict, Secure in production, path /console. Every request checks the session afresh against the
 * database: revoked, its person revoked, idle longer than CONSOLE_SESSION_IDLE_MINUTES or older than
 * CONSOLE_SESSION_MAX_HOURS, and it is over at once. Every POST carries `csrf_token`: the session's own token,
 * or (sign-in and invitation forms, before there is a session) the value of a form cookie, double-submitted.
 */

export const SESSION_COOKIE = 'console_session';
/** The anti-forgery value of the signed-out forms (sign-in, invitation). */
export const FORM_COOKIE = 'console_form';
export const SIGN_IN_PATH = `${CONSOLE_BASE}/sign-in`;
export const AUTHENTICATOR_PATH = `${CONSOLE_BASE}/account/authenticator`;

/** Forms posted without a session: their token is the form cookie's. */
const SIGNED_OUT_FORMS = [/^\/console\/sign-in\/?$/, /^\/console\/invite\/[^/]+\/?$/];
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const ROLE_RANK: Record<ConsoleRole, number> = { VIEWER: 0, AGENT: 1 };

export function cookieOptions(deps: ConsoleDeps): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.config.nodeEnv === 'production',
    path: CONSOLE_BASE,
    maxAge: deps.config.consoleSessionMaxHours * 3600_000,
  };
}

/** A cookie of the request (no parser middleware: the console reads two cookies, the API none). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      const value = part.slice(i + 1).trim();
      return TOKEN.test(value) ? value : undefined;
    }
  }
  return undefined;
}

const pathOf = (req: Request) => req.originalUrl.split('?')[0] ?? '';

/** Finds the live session of the request, if any, and keeps it alive; a dead one's cookie is cleared. */
export function resolveSession(deps: ConsoleDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      const id = readCookie(req, SESSION_COOKIE);
      if (!id) return next();
      const idHash = tokenHash(id);
      const row = await consoleUserRepo.findSession(deps.db, idHash);
      const now = deps.now().getTime();
      const idleMs = deps.config.consoleSessionIdleMinutes * 60_000;
      const maxMs = deps.config.consoleSessionMaxHours * 3600_000;
      const live =
        row &&
        !row.session_revoked_at &&
        !row.user_revoked_at &&
        now - row.last_seen_at.getTime() < idleMs &&
        now - row.session_created_at.getTime() < maxMs;
      if (!live) {
        res.locals.consoleSessionEnded = true;
        res.clearCookie(SESSION_COOKIE, { ...cookieOptions(deps), maxAge: undefined });
        return next();
      }
      await consoleUserRepo.touchSession(deps.db, idHash, deps.now());
      const session: ConsoleSession = {
        idHash,
        csrfToken: row.csrf_token,
        requireTotp: row.require_totp === true,
        user: {
          user_id: row.user_id,
          airline_id: row.airline_id,
          email: row.email,
          role: row.role,
          totp_enabled: row.totp_enabled_at !== null,
        },
      };
      res.locals.consoleSession = session;
      res.locals.csrfToken = session.csrfToken;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** A new session of the person: its id, for `setSessionCookie` (in a transaction, once that has committed). */
export async function newSession(deps: ConsoleDeps, db: DbOrTrx, userId: string): Promise<string> {
  const id = randomToken();
  // The person's ended sessions (signed out, or long past their lifetime) go as a new one starts: the table stays small.
  const maxMs = deps.config.consoleSessionMaxHours * 3600_000;
  await consoleUserRepo.pruneSessions(db, userId, new Date(deps.now().getTime() - 2 * maxMs));
  await consoleUserRepo.insertSession(db, {
    session_id_hash: tokenHash(id),
    user_id: userId,
    csrf_token: randomToken(),
    created_at: deps.now(),
  });
  return id;
}

export function setSessionCookie(deps: ConsoleDeps, res: Response, id: string): void {
  res.cookie(SESSION_COOKIE, id, cookieOptions(deps));
}

/** Starts a new session (a new id at every sign-in) and sets its cookie. */
export async function startSession(deps: ConsoleDeps, res: Response, userId: string): Promise<void> {
  setSessionCookie(deps, res, await newSession(deps, deps.db, userId));
}

/** Ends the request's session, if any, and clears its cookie. */
export async function endSession(deps: ConsoleDeps, req: Request, res: Response): Promise<void> {
  const id = readCookie(req, SESSION_COOKIE);
  if (id) await consoleUserRepo.revokeSession(deps.db, tokenHash(id), deps.now());
  res.clearCookie(SESSION_COOKIE, { ...cookieOptions(deps), maxAge: undefined });
}

/** The form cookie's value for a signed-out form (set when missing); forms then carry it as `csrf_token`. */
export function useFormToken(deps: ConsoleDeps, req: Request, res: Response): string {
  let token = readCookie(req, FORM_COOKIE);
  if (!token) {
    token = randomToken();
    res.cookie(FORM_COOKIE, token, cookieOptions(deps));
  }
  res.locals.csrfToken = token;
  return token;
}

/** Where a signed-out person is sent: the sign-in page, back to `next` afterwards (GETs only). */
export function redirectToSignIn(req: Request, res: Response): void {
  const q = new URLSearchParams();
  if (res.locals.consoleSessionEnded) q.set('ended', '1');
  if (req.method === 'GET' && isConsolePath(req.originalUrl)) q.set('next', req.originalUrl);
  res.redirect(303, `${SIGN_IN_PATH}${q.size ? `?${q.toString()}` : ''}`);
}

/** A path of this console (and nothing else: no open redirect through `next`). */
export function isConsolePath(path: string): boolean {
  return /^\/console(\/[A-Za-z0-9/_.~%-]*)?(\?[A-Za-z0-9=&_.~%+-]*)?$/.test(path) && !path.includes('//');
}

/** Every POST: its `csrf_token` must be the session's (or, on the signed-out forms, the form cookie's); else 403. */
export function csrfGuard(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    // A browser names the page's origin on a POST: another site's is refused whatever the token.
    if (crossSiteOrigin(req)) return refuse(req, res);
    const given = (req.body as Record<string, unknown> | undefined)?.csrf_token;
    const token = typeof given === 'string' ? given : '';
    const path = pathOf(req);
    if (SIGNED_OUT_FORMS.some((re) => re.test(path))) {
      const expected = readCookie(req, FORM_COOKIE);
      return expected && safeEqual(token, expected) ? next() : refuse(req, res);
    }
    const session = sessionOf(res);
    // Without a session nothing can be done: the person signs in again (an expired session lands there).
    if (!session) return redirectToSignIn(req, res);
    return safeEqual(token, session.csrfToken) ? next() : refuse(req, res);
  };
}

function refuse(req: Request, res: Response): void {
  messagePage(
    req,
    res,
    403,
    'Form not accepted',
    'This form was not sent from the console page it belongs to, or the page is too old. Go back, reload the page and try again.',
  );
}

/**
 * For every page that needs a signed-in person: without a live session, the sign-in page; `role` AGENT
 * refuses a VIEWER (403); an airline that requires an authenticator app sends a person without one to set
 * it up first. Puts the person on `res.locals.consoleUser`.
 */
export function requireConsoleUser(role: ConsoleRole = 'VIEWER'): RequestHandler {
  return (req, res, next) => {
    const session = sessionOf(res);
    if (!session) return redirectToSignIn(req, res);
    if (session.requireTotp && !session.user.totp_enabled && pathOf(req) !== AUTHENTICATOR_PATH)
      return res.redirect(303, AUTHENTICATOR_PATH);
    if (ROLE_RANK[session.user.role] < ROLE_RANK[role])
      return messagePage(req, res, 403, 'Not allowed', 'Your role in the console only lets you read.', {
        href: CONSOLE_BASE,
        label: 'Back to the review queue',
      });
    res.locals.consoleUser = session.user;
    next();
  };
}
