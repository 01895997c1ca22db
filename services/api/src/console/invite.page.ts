import express, { type Request, type Response } from 'express';
import { consoleUserRepo } from '@crew/db';
import { Type } from '@sinclair/typebox';
import { CONSOLE_BASE, htmlAnswer, redirectAnswer, type ConsoleDeps, type ConsolePages } from './context';
import { html } from './html';
import { alertBox, consoleForm, consolePage, messagePage } from './layout';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, tokenHash } from './secrets';
import { SIGN_IN_PATH, useFormToken } from './session';

/*
 * The invitation link (`invite_url`): the person sets their password, once. The token in the path is the
 * credential until it is used or its 72 hours pass; only its hash is stored, and the request log redacts it.
 */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type FieldErrors = Partial<Record<'password' | 'password_repeat', string>>;

function invalidLink(req: Request, res: Response, status: 404 | 410): void {
  messagePage(
    req,
    res,
    status,
    'Invitation not valid',
    'This invitation link has been used already, has expired or was withdrawn. Ask your airline’s console administrator for a new one.',
    { href: SIGN_IN_PATH, label: 'Go to sign in' },
  );
}

/** The invitation of the link, if it can still be used; else the refusal was sent. */
async function usable(deps: ConsoleDeps, req: Request, res: Response) {
  const token = String(req.params.token ?? '');
  if (!TOKEN.test(token)) return invalidLink(req, res, 404);
  const inv = await consoleUserRepo.findInvitation(deps.db, tokenHash(token));
  if (!inv) return invalidLink(req, res, 404);
  if (inv.used_at || inv.revoked_at || inv.expires_at.getTime() <= deps.now().getTime())
    return invalidLink(req, res, 410);
  return { token, email: inv.email };
}

function render(req: Request, res: Response, token: string, email: string, errors: FieldErrors = {}): void {
  const field = (id: keyof FieldErrors, label: string, hint: string | null) => {
    const error = errors[id];
    const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    return html`<label for="${id}">${label}</label>
      ${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}
      ${error ? html`<span class="hint field-error" id="${id}-error">${error}</span>` : ''}
      <input
        id="${id}"
        name="${id}"
        type="password"
        autocomplete="new-password"
        required
        minlength="${PASSWORD_MIN_LENGTH}"
        maxlength="${PASSWORD_MAX_LENGTH}"
        ${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}
      />`;
  };
  const hasErrors = Object.keys(errors).length > 0;
  consolePage(req, res, {
    title: 'Set your password',
    body: html`${alertBox(hasErrors ? 'The password was not set: see the fields below.' : null)}
      <p>
        You have been invited to the Crew Travel console as <strong>${email}</strong>. Choose a password to sign in
        with.
      </p>
      ${consoleForm(
        res,
        `${CONSOLE_BASE}/invite/${token}`,
        html`${field('password', 'Password', `At least ${PASSWORD_MIN_LENGTH} characters; a few unrelated words make a good one.`)}
          ${field('password_repeat', 'Repeat password', null)} <button type="submit">Set password</button>`,
      )}`,
  });
}

const INVITE_PATH = `${CONSOLE_BASE}/invite/:token`;
const TAGS = ['Console'];
const InviteParams = Type.Object({
  token: Type.String({ description: 'The token of the invitation link (`invite_url`)', maxLength: 64 }),
});

/** GET/POST /console/invite/:token. */
export const invitePages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: INVITE_PATH,
      operationId: 'consoleInvitationPage',
      summary: 'The invitation page (HTML; `invite_url`): Password, Repeat password, Set password',
      description:
        'Where an invited person of the travel desk sets their password. The link works once, for 72 hours, while the person is not revoked: ' +
        'an unknown token is 404; a used, expired or withdrawn one 410.',
      tags: TAGS,
      auth: 'none',
      params: InviteParams,
      responses: {
        200: htmlAnswer('The form'),
        404: htmlAnswer('Not an invitation link'),
        410: htmlAnswer('Used, expired or withdrawn'),
      },
    },
    {
      method: 'post',
      path: INVITE_PATH,
      operationId: 'consoleSetPassword',
      summary: 'Set the invited person’s password (the invitation form)',
      description:
        'Form fields `csrf_token` (the form cookie’s value, as the page put it), `password` (12 to 128 characters, not the e-mail) and `password_repeat`. ' +
        'Success uses the link up and answers 303 to the sign-in page; a password refused is 200 with the form again, each problem next to its field.',
      tags: TAGS,
      auth: 'none',
      params: InviteParams,
      responses: {
        200: htmlAnswer('The password was refused: the form again'),
        303: redirectAnswer('Password set: to the sign-in page'),
        403: htmlAnswer('Without the form’s csrf_token'),
        404: htmlAnswer('Not an invitation link'),
        410: htmlAnswer('Used, expired or withdrawn'),
      },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    const audit = deps.logger;

    router.get(INVITE_PATH, async (req, res, next) => {
      try {
        const inv = await usable(deps, req, res);
        if (!inv) return;
        useFormToken(deps, req, res);
        render(req, res, inv.token, inv.email);
      } catch (err) {
        next(err);
      }
    });

    router.post(INVITE_PATH, async (req, res, next) => {
      try {
        const inv = await usable(deps, req, res);
        if (!inv) return;
        const body = (req.body ?? {}) as Record<string, unknown>;
        const password = typeof body.password === 'string' ? body.password : '';
        const repeat = typeof body.password_repeat === 'string' ? body.password_repeat : '';
        const errors: FieldErrors = {};
        if ([...password].length < PASSWORD_MIN_LENGTH)
          errors.password = `The password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
        else if (password.length > PASSWORD_MAX_LENGTH)
          errors.password = `The password may have at most ${PASSWORD_MAX_LENGTH} characters.`;
        else if (password.trim().toLowerCase() === inv.email) errors.password = 'The password may not be your e-mail.';
        if (!errors.password && repeat !== password) errors.password_repeat = 'The two passwords are not the same.';
        if (Object.keys(errors).length) {
          useFormToken(deps, req, res);
          return render(req, res, inv.token, inv.email, errors);
        }
        const hash = await hashPassword(password, deps.passwordHashCost);
        const accepted = await consoleUserRepo.acceptInvitation(deps.db, tokenHash(inv.token), hash, deps.now());
        // Used meanwhile (a second tab, a second click): the link is spent either way.
        if (!accepted) return invalidLink(req, res, 410);
        audit.info({ event: 'console_password_set', user_id: accepted.user_id }, 'console invitation used');
        res.redirect(303, `${SIGN_IN_PATH}?password_set=1`);
      } catch (err) {
        next(err);
      }
    });

    return router;
  },
};
