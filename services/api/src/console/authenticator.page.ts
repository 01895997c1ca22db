import express, { type Request, type Response } from 'express';
import { consoleUserRepo } from '@crew/db';
import {
  CONSOLE_BASE,
  htmlAnswer,
  redirectAnswer,
  type ConsoleDeps,
  type ConsolePages,
  type ConsoleSession,
  type ConsoleUser,
} from './context';
import { html } from './html';
import { alertBox, consoleForm, consolePage, sessionOf } from './layout';
import { AUTHENTICATOR_PATH, newSession, requireConsoleUser, setSessionCookie } from './session';
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpStep, totpUri } from './totp';

/*
 * Enrolment of an authenticator app (`/console/account/authenticator`): the secret is shown as text (and as
 * the otpauth URI an app imports); the person proves the app works by typing its current code, and from then
 * on every sign-in asks for a code. An airline that requires it sends people here until they have enrolled.
 */

/**
 * The secret this session is enrolling: the one it was shown before, else a new one (sealed at once). It is the
 * session's, not the person's: another session (one opened with a leaked password) is shown a secret of its own,
 * so none it has seen can be the one the person enables.
 */
async function pendingSecret(deps: ConsoleDeps, session: ConsoleSession): Promise<string> {
  const userId = session.user.user_id;
  const sealed = await consoleUserRepo.findPendingTotp(deps.db, session.idHash);
  if (sealed) {
    try {
      return openTotpSecret(deps.keyring, userId, sealed);
    } catch {
      // Sealed under a key no longer listed: start again with a new secret.
    }
  }
  const secret = newTotpSecret();
  await consoleUserRepo.setPendingTotp(deps.db, session.idHash, sealTotpSecret(deps.keyring, userId, secret));
  return secret;
}

function render(req: Request, res: Response, user: ConsoleUser, secret: string, error?: string): void {
  const required = sessionOf(res)?.requireTotp === true;
  const grouped = secret.replace(/(.{4})(?=.)/g, '$1 ');
  consolePage(req, res, {
    title: 'Authenticator app',
    body: html`${alertBox(error)}
      ${required ? alertBox('Your airline requires an authenticator app: set one up to go on.', 'notice') : ''}
      <p>
        An authenticator app (on your phone or computer) shows a new 6-digit code every 30 seconds. Once it is set up,
        signing in asks for that code as well as your password.
      </p>
      <ol>
        <li>
          In the app, add an account and choose to type a key. Enter this key:
          <p><code class="secret" id="totp-secret">${grouped}</code></p>
          Or, if the app takes a setup link, use:
          <p><code id="totp-uri">${totpUri(secret, user.email)}</code></p>
        </li>
        <li>Type the code the app shows now and choose “Enable”.</li>
      </ol>
      ${consoleForm(
        res,
        AUTHENTICATOR_PATH,
        html`<label for="totp_code">Authenticator code</label>
          <input
            id="totp_code"
            name="totp_code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            required
            maxlength="8"
            ${error ? html` aria-invalid="true"` : ''}
          />
          <button type="submit">Enable</button>`,
      )}`,
  });
}

const TAGS = ['Console'];

/** GET/POST /console/account/authenticator. */
export const authenticatorPages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: AUTHENTICATOR_PATH,
      operationId: 'consoleAuthenticatorPage',
      summary: 'Set up an authenticator app (HTML): the secret as text, Authenticator code, Enable',
      description:
        'Needs a console session (else 303 to sign-in). Shows the TOTP secret (base32 and its otpauth:// URI; the session’s own, another session is shown another) until the person has enabled an app; ' +
        'after that, says so. An airline that requires an app sends people without one here before any other page.',
      tags: TAGS,
      auth: 'none',
      responses: { 200: htmlAnswer('The page'), 303: redirectAnswer('Not signed in: to sign-in') },
    },
    {
      method: 'post',
      path: AUTHENTICATOR_PATH,
      operationId: 'consoleEnableAuthenticator',
      summary: 'Enable the authenticator app with its current code',
      description:
        'Form fields `csrf_token` (the session’s) and `totp_code`, the code the app shows now. Right: the app is in force (every sign-in asks for its code), every other session of the person ends, this browser goes on in a new session (a new `console_session` cookie), 303 to /console. ' +
        'Wrong: 200 with the page again and the reason.',
      tags: TAGS,
      auth: 'none',
      responses: {
        200: htmlAnswer('Not the current code: the page again'),
        303: redirectAnswer('Enabled, or not signed in'),
        403: htmlAnswer('Without the session’s csrf_token'),
      },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    const audit = deps.logger;
    const path = AUTHENTICATOR_PATH;

    router.get(path, requireConsoleUser(), async (req, res, next) => {
      try {
        const user = res.locals.consoleUser as ConsoleUser;
        if (user.totp_enabled)
          return consolePage(req, res, {
            title: 'Authenticator app',
            body: html`<p>Your authenticator app is set up: signing in asks for its code.</p>
              <p><a href="${CONSOLE_BASE}">Back to the review queue</a></p>`,
          });
        render(req, res, user, await pendingSecret(deps, sessionOf(res)!));
      } catch (err) {
        next(err);
      }
    });

    router.post(path, requireConsoleUser(), async (req, res, next) => {
      try {
        const user = res.locals.consoleUser as ConsoleUser;
        if (user.totp_enabled) return res.redirect(303, AUTHENTICATOR_PATH);
        const secret = await pendingSecret(deps, sessionOf(res)!);
        const code = (req.body as Record<string, unknown> | undefined)?.totp_code;
        const now = deps.now();
        const step = typeof code === 'string' ? totpStep(secret, user.email, code, now) : null;
        const sealed = sealTotpSecret(deps.keyring, user.user_id, secret);
        // Enabling ends every session of the person, this one too (a session opened with a stolen password must
        // not outlive the app), and this browser goes on in a new one, as after a sign-in: all or nothing.
        const enabled =
          step === null
            ? null
            : await deps.db.transaction().execute(async (trx) => {
                if (!(await consoleUserRepo.enableTotp(trx, user.user_id, sealed, step, now))) return null;
                const ended = await consoleUserRepo.revokeUserSessions(trx, user.user_id, now);
                return { id: await newSession(deps, trx, user.user_id), ended };
              });
        if (!enabled)
          return render(
            req,
            res,
            user,
            secret,
            'That code is not the one the app shows now. Check the key and try again.',
          );
        setSessionCookie(deps, res, enabled.id);
        audit.info(
          {
            event: 'console_totp_enabled',
            airline_id: user.airline_id,
            user_id: user.user_id,
            sessions_ended: enabled.ended,
          },
          'console authenticator enabled',
        );
        res.redirect(303, CONSOLE_BASE);
      } catch (err) {
        next(err);
      }
    });

    return router;
  },
};
