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
  /** A page of wide tables: the main column may be wider. */
  wide?: boolean;
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

const NAV = [
  { href: CONSOLE_BASE, label: 'Review queue' },
  { href: `${CONSOLE_BASE}/coverage`, label: 'Coverage' },
  { href: `${CONSOLE_BASE}/spend`, label: 'Spend' },
  { href: `${CONSOLE_BASE}/account/authenticator`, label: 'Authenticator app' },
];

function header(req: Request, res: Response): SafeHtml {
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
        ${NAV.map(
          (n) =>
            html`<li><a href="${n.href}" ${req.path === n.href ? html`aria-current="page"` : ''}>${n.label}</a></li>`,
        )}
      </ul>
    </nav>
    <p class="who">
      Signed in as <strong>${session.user.email}</strong> (${session.user.role === 'AGENT' ? 'agent' : 'viewer'})
    </p>
    ${signOut}
  </header>`;
}

/** Renders a whole console page and sends it (no caching: pages show a person's own data). */
export function consolePage(req: Request, res: Response, input: ConsolePageInput): void {
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
        ${header(req, res)}
        <main id="main" tabindex="-1" ${input.wide ? html`class="wide"` : ''}>
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
.top nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
main.wide{max-width:80rem}
h2{font-size:1.3rem;margin-top:2rem}h3{font-size:1.1rem;margin-top:1.5rem}
table{border-collapse:collapse;width:100%;margin:.8rem 0}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid #c9ced8}
thead th{background:#f3f6fb;border-bottom:2px solid #5a6475}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.due-overdue td:first-child{border-left:6px solid #b00020}
tr.due-soon td:first-child{border-left:6px solid #c25100}
tr.due-later td:first-child{border-left:6px solid #0b6b2f}
tr.due-none td:first-child{border-left:6px solid #c9ced8}
.badge{display:inline-block;padding:0 .45rem;border-radius:3px;font-weight:600;font-size:.9rem;white-space:nowrap}
.badge.overdue{background:#fdecee;color:#8c0019;border:1px solid #b00020}
.badge.soon{background:#fff1e0;color:#7a3300;border:1px solid #c25100}
.badge.later{background:#eaf6ee;color:#0b5526;border:1px solid #0b6b2f}
.badge.none,.badge.closed{background:#f3f6fb;color:#33394a;border:1px solid #5a6475}
.filters{display:flex;flex-wrap:wrap;gap:0 1.2rem;align-items:flex-end}
.filters label{margin-top:.5rem}.filters select,.filters input[type=text]{max-width:12rem}
.pager{margin-top:1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1.2rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
section.act{border:1px solid #c9ced8;border-radius:4px;padding:.2rem 1rem 1rem;margin:1rem 0}
td form button,.inline button{margin-top:0}
svg.bar{display:block;width:100%;max-width:20rem;height:1.2rem}
.bar-covered{fill:#0b6b2f}.bar-at-risk{fill:#c25100}.bar-uncovered{fill:#b00020}.bar-empty{fill:#e6e9ef}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.legend{display:flex;gap:1.2rem;list-style:none;padding:0}
.swatch{display:inline-block;width:1rem;height:1rem;vertical-align:middle;margin-right:.35rem;border-radius:2px}
.swatch.covered{background:#0b6b2f}.swatch.at-risk{background:#c25100}.swatch.uncovered{background:#b00020}
.bar-hotels{fill:#1f4e9c}.bar-flights{fill:#5b8bd6}.bar-penalties{fill:#b00020}
.swatch.hotels{background:#1f4e9c}.swatch.flights{background:#5b8bd6}.swatch.penalties{background:#b00020}
`;
