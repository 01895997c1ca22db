import type { Request, Response } from 'express';
import { CONSOLE_BASE, type ConsoleSession } from './context';
import { html, type SafeHtml } from './html';

/*
 * The one layout of every console page: a header naming the signed-in person with the "Sign out" button,
 * the page's `<main>` with its heading, plain HTML forms. No script at all (the Content-Security-Policy
 * forbids it) and one stylesheet of our own, so every control works from the keyboard and a screen reader
 * finds each by its visible label.
 */

export interface ConsolePageInput {
  /** The page's name: the document title and its one `<h1>`. */
  title: string;
  body: SafeHtml;
  /** HTTP status (200). */
  status?: number;
}

export function sessionOf(res: Response): ConsoleSession | undefined {
  return res.locals.consoleSession as ConsoleSession | undefined;
}

/** The anti-forgery field every form of the console carries (`csrf_token`, of the session or the signed-out form cookie). */
export function csrfField(res: Response): SafeHtml {
  const token = (res.locals.csrfToken as string | undefined) ?? sessionOf(res)?.csrfToken ?? '';
  return html`<input type="hidden" name="csrf_token" value="${token}" />`;
}

/** A POST form of the console with its anti-forgery field; `body` holds the labelled controls and the button. */
export function consoleForm(res: Response, action: string, body: SafeHtml, attributes: SafeHtml = html``): SafeHtml {
  return html`<form method="post" action="${action}" ${attributes}>${csrfField(res)}${body}</form>`;
}

function header(res: Response): SafeHtml {
  const session = sessionOf(res);
  if (!session) return html`<header class="top"><p class="brand">Crew Travel console</p></header>`;
  const signOut = html`<form method="post" action="${CONSOLE_BASE}/sign-out" class="sign-out">
    <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
    <button type="submit">Sign out</button>
  </form>`;
  return html`<header class="top">
    <p class="brand"><a href="${CONSOLE_BASE}">Crew Travel console</a></p>
    <nav aria-label="Console">
      <ul>
        <li><a href="${CONSOLE_BASE}">Review queue</a></li>
        <li><a href="${CONSOLE_BASE}/account/authenticator">Authenticator app</a></li>
      </ul>
    </nav>
    <p class="who">
      Signed in as <strong>${session.user.email}</strong> (${session.user.role === 'AGENT' ? 'agent' : 'viewer'})
    </p>
    ${signOut}
  </header>`;
}

/** Renders a whole console page and sends it (no caching: pages show a person's own data). */
export function consolePage(_req: Request, res: Response, input: ConsolePageInput): void {
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${input.title} · Crew Travel console</title>
        <link rel="stylesheet" href="${CONSOLE_BASE}/assets/console.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to main content</a>
        ${header(res)}
        <main id="main" tabindex="-1">
          <h1>${input.title}</h1>
          ${input.body}
        </main>
      </body>
    </html>`;
  res
    .status(input.status ?? 200)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(page.text);
}

/** A page that only says something (an error, a refusal), with an optional link onwards. */
export function messagePage(
  req: Request,
  res: Response,
  status: number,
  title: string,
  text: string,
  link?: { href: string; label: string },
): void {
  consolePage(req, res, {
    title,
    status,
    body: html`<p>${text}</p>
      ${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
  });
}

/** An error or notice above a form, read out by screen readers when the page loads. */
export function alertBox(text: string | null | undefined, kind: 'error' | 'notice' = 'error'): SafeHtml {
  if (!text) return html``;
  return kind === 'error'
    ? html`<div class="error" role="alert"><p>${text}</p></div>`
    : html`<div class="notice" role="status"><p>${text}</p></div>`;
}

/** The stylesheet (served from /console/assets/console.css: the policy allows no inline style). */
export const CONSOLE_CSS = `*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1f2b;background:#fff;line-height:1.5}
.skip{position:absolute;left:-999px;top:0;background:#0b3d91;color:#fff;padding:.5rem 1rem}
.skip:focus{left:0}
.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.6rem 1.2rem;border-bottom:2px solid #0b3d91;background:#f3f6fb}
.top .brand{font-weight:700;margin:0}.top nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
.top .who{margin:0 0 0 auto}.top form{margin:0}
a{color:#0b3d91}a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #c25100;outline-offset:2px}
main{max-width:60rem;margin:0 auto;padding:1rem 1.2rem 3rem}
h1{font-size:1.6rem}
label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=email],input[type=password],select,textarea{font:inherit;padding:.45rem .5rem;border:1px solid #5a6475;border-radius:3px;width:100%;max-width:24rem}
input{display:block}
button{display:block;font:inherit;padding:.5rem 1.2rem;border:1px solid #0b3d91;border-radius:3px;background:#0b3d91;color:#fff;cursor:pointer;margin-top:1.2rem}
.sign-out button{margin-top:0;background:#fff;color:#0b3d91}
.hint{display:block;color:#4a5262;font-size:.9rem}
.field-error{color:#b00020;font-weight:600}
.error{border-left:4px solid #b00020;background:#fdecee;padding:.2rem 1rem;margin:1rem 0}
.notice{border-left:4px solid #0b6b2f;background:#eaf6ee;padding:.2rem 1rem;margin:1rem 0}
code.secret{font-size:1.2rem;letter-spacing:.08em;word-break:break-all}
code{word-break:break-all}
`;
