import express, { type Request, type Response } from 'express';
import { checkBody, Email, isStorableText } from '@crew/contracts';
import { consoleUserRepo } from '@crew/db';
import { CONSOLE_BASE, htmlAnswer, redirectAnswer, type ConsoleDeps, type ConsolePages } from './context';
import { html } from './html';
import { alertBox, consoleForm, consolePage, sessionOf } from './layout';
import { decoyPasswordHash, PASSWORD_MAX_LENGTH, verifyPassword } from './secrets';
import { endSession, isConsolePath, SIGN_IN_PATH, startSession, useFormToken } from './session';
import { signInEmailOf, signInLimit, type SignInRefusal } from './sign-in-limit';
import { openTotpSecret, totpStep } from './totp';

const NOTICES: Record<string, string> = {
  ended: 'Your session has ended. Sign in again to go on.',
  signed_out: 'You have signed out.',
  password_set: 'Your password is set. Sign in with your e-mail and the new password.',
};
const REFUSED = 'The e-mail, password or authenticator code is not right. Check them and try again.';

type Candidate = Awaited<ReturnType<typeof consoleUserRepo.findSignInCandidates>>[number];
type Outcome = { user: Candidate } | { refused: SignInRefusal };

function renderSignIn(req: Request, res: Response, o: { email?: string; error?: string; notice?: string }): void {
  const query = req.query as Record<string, unknown>;
  const notice = o.notice ?? Object.keys(NOTICES).find((k) => query[k] === '1');
  const next = typeof query.next === 'string' && isConsolePath(query.next) ? query.next : '';
  consolePage(req, res, {
    title: 'Sign in',
    body: html`${alertBox(o.error)}${alertBox(notice ? NOTICES[notice] : null, 'notice')}
    ${consoleForm(
      res,
      `${SIGN_IN_PATH}${next ? `?${new URLSearchParams({ next }).toString()}` : ''}`,
      html`<label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="254"
          value="${o.email ?? ''}"
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength="${PASSWORD_MAX_LENGTH}"
        />
        <label for="totp_code">Authenticator code</label>
        <span class="hint" id="totp_code-hint"
          >Only if you have set up an authenticator app: the 6 digits it shows now.</span
        >
        <input
          id="totp_code"
          name="totp_code"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength="8"
          aria-describedby="totp_code-hint"
        />
        <button type="submit">Sign in</button>`,
    )}`,
  });
}

/**
 * An e-mail a person could have (the form a console user's e-mail is created with): anything else, a NUL byte
 * or an unpaired surrogate Postgres cannot compare included, is no one's and is never looked up.
 */
function isEmail(email: string): boolean {
  return checkBody(Email, email).ok;
}

/** Checks e-mail, password and (when the person has one) the authenticator code. */
async function check(deps: ConsoleDeps, email: string, password: string, code: string): Promise<Outcome> {
  const candidates =
    isEmail(email) && password && password.length <= PASSWORD_MAX_LENGTH
      ? await consoleUserRepo.findSignInCandidates(deps.db, email)
      : [];
  let user: Candidate | undefined;
  // The page names no airline: an e-mail may be a person at two airlines, each with their own password.
  for (const c of candidates) {
    if (await verifyPassword(password, c.password_hash!)) {
      user = c;
      break;
    }
  }
  // An unknown e-mail costs the same time as a wrong password.
  if (candidates.length === 0)
    await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH), decoyPasswordHash(deps.passwordHashCost));
  if (!user) return { refused: 'unknown_or_wrong_password' };
  if (user.totp_enabled_at && user.totp_secret_sealed) {
    if (!code) return { refused: 'totp_missing' };
    let secret: string;
    try {
      secret = openTotpSecret(deps.keyring, user.user_id, user.totp_secret_sealed);
    } catch {
      // The key that sealed it is no longer listed: the person cannot pass until an administrator re-invites them.
      deps.logger.error({ user_id: user.user_id }, 'a console authenticator secret does not open with the key list');
      return { refused: 'totp_wrong' };
    }
    const step = totpStep(secret, user.email, code, deps.now());
    if (step === null || !(await consoleUserRepo.takeTotpStep(deps.db, user.user_id, step)))
      return { refused: 'totp_wrong' };
  }
  return { user };
}

const SIGN_OUT_PATH = `${CONSOLE_BASE}/sign-out`;
const TAGS = ['Console'];

/** GET/POST /console/sign-in and POST /console/sign-out. */
export const signInPages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: SIGN_IN_PATH,
      operationId: 'consoleSignInPage',
      summary: 'The console’s sign-in page (HTML): E-mail, Password, Authenticator code, Sign in',
      description:
        'For people of an airline’s travel desk, each with their own login (never the integration’s credential). Already signed in: 303 to /console. ' +
        '`next` (a /console path) is where a successful sign-in goes; `ended=1`, `signed_out=1`, `password_set=1` show a notice.',
      tags: TAGS,
      auth: 'none',
      responses: { 200: htmlAnswer('The sign-in form'), 303: redirectAnswer('Already signed in: to /console') },
    },
    {
      method: 'post',
      path: SIGN_IN_PATH,
      operationId: 'consoleSignIn',
      summary: 'Sign in to the console (the sign-in form)',
      description:
        'Form fields `csrf_token` (the form cookie’s value, as the page put it), `email`, `password`, and `totp_code` for a person with an authenticator app. ' +
        'Success: a new session (cookie `console_session`: httpOnly, SameSite=Strict, Secure in production, path /console) and 303 to `next` or /console. ' +
        'A wrong e-mail, password or code: 200 with the form again and the reason (a text that is no e-mail address, a NUL byte in it say, is refused as an unknown e-mail). ' +
        'Refused tries are counted for 15 minutes; once a count is spent, the tries it covers are 429 until its window passes: ten for one e-mail from one address, thirty for one e-mail from any addresses, ten wrong authenticator codes for one e-mail, a hundred from one address whatever the e-mails (an IPv6 address counts by its /56). Successful sign-ins are not counted.',
      tags: TAGS,
      auth: 'none',
      responses: {
        303: redirectAnswer('Signed in'),
        200: htmlAnswer('Refused: the form again, with the reason'),
        403: htmlAnswer('Without the form’s csrf_token'),
        429: htmlAnswer('Too many refused tries'),
      },
    },
    {
      method: 'post',
      path: SIGN_OUT_PATH,
      operationId: 'consoleSignOut',
      summary: 'Sign out of the console (the “Sign out” button of every page)',
      description:
        'Form field `csrf_token` (the session’s). Ends the session at once, clears its cookie and answers the sign-in page (200). Without a live session: 303 to the sign-in page.',
      tags: TAGS,
      auth: 'none',
      responses: {
        200: htmlAnswer('Signed out: the sign-in page'),
        303: redirectAnswer('No live session: to the sign-in page'),
        403: htmlAnswer('Without the session’s csrf_token'),
      },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    const audit = deps.logger;

    router.get(SIGN_IN_PATH, (req, res) => {
      if (sessionOf(res)) return res.redirect(303, CONSOLE_BASE);
      useFormToken(deps, req, res);
      renderSignIn(req, res, {});
    });

    router.post(SIGN_IN_PATH, signInLimit(deps), async (req, res, next) => {
      try {
        const body = (req.body ?? {}) as Record<string, unknown>;
        const email = signInEmailOf(req);
        const password = typeof body.password === 'string' ? body.password : '';
        const code = typeof body.totp_code === 'string' ? body.totp_code.trim() : '';
        const outcome = await check(deps, email, password, code);
        if ('refused' in outcome) {
          // Never the e-mail typed (it may be a password typed in the wrong field), never the password or code.
          audit.warn(
            { event: 'console_sign_in', outcome: 'refused', reason: outcome.refused },
            'console sign-in refused',
          );
          useFormToken(deps, req, res);
          res.locals.signInRefused = outcome.refused;
          // The text typed goes back in the field to be corrected, unless no page can carry it.
          const shown = email.length <= 254 && isStorableText(email) ? email : '';
          return renderSignIn(req, res, { email: shown, error: REFUSED });
        }
        const { user } = outcome;
        // A new session id at every sign-in; a session this browser still held ends.
        await endSession(deps, req, res);
        await startSession(deps, res, user.user_id);
        audit.info(
          { event: 'console_sign_in', outcome: 'success', airline_id: user.airline_id, user_id: user.user_id },
          'console sign-in',
        );
        const next =
          typeof req.query.next === 'string' && isConsolePath(req.query.next) ? req.query.next : CONSOLE_BASE;
        res.redirect(303, next);
      } catch (err) {
        next(err);
      }
    });

    router.post(SIGN_OUT_PATH, async (req, res, next) => {
      try {
        const session = sessionOf(res);
        await endSession(deps, req, res);
        if (session)
          audit.info(
            { event: 'console_sign_out', airline_id: session.user.airline_id, user_id: session.user.user_id },
            'console sign-out',
          );
        // The sign-in page, signed out (no redirect: the form's answer is the page).
        delete res.locals.consoleSession;
        useFormToken(deps, req, res);
        renderSignIn(req, res, { notice: 'signed_out' });
      } catch (err) {
        next(err);
      }
    });

    return router;
  },
};
