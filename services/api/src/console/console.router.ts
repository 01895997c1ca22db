import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import type { RouteDoc } from '@crew/contracts';
import { isDatabaseUnavailable } from '@crew/platform';
import { authenticatorPages } from './authenticator.page';
import { coveragePages } from './coverage.page';
import { spendPages } from './spend.page';
import { CONSOLE_BASE, consoleDeps, type ConsoleDeps, type ConsolePages } from './context';
import { invitePages } from './invite.page';
import { itemPages } from './item.page';
import { queuePages } from './queue.page';
import { CONSOLE_CSS, messagePage } from './layout';
import { csrfGuard, resolveSession } from './session';
import { signInPages } from './sign-in.page';

export { CONSOLE_BASE, consoleDeps };

const STYLESHEET_PATH = `${CONSOLE_BASE}/assets/console.css`;
/** Seconds a browser is told to wait before trying again while the database cannot be reached (the API's too). */
const RETRY_AFTER_SECONDS = 5;

/** The console's page groups; a new group of pages is added to this list (its router and its documentation). */
const PAGES: ConsolePages[] = [
  signInPages,
  invitePages,
  queuePages,
  itemPages,
  coveragePages,
  spendPages,
  authenticatorPages,
];

/** Every console route as the OpenAPI document lists it (HTML for people, not for API clients). */
export const CONSOLE_PAGE_ROUTES: readonly RouteDoc[] = [
  {
    method: 'get',
    path: STYLESHEET_PATH,
    operationId: 'consoleStylesheet',
    summary: 'The console’s stylesheet',
    description: 'The one stylesheet of the console pages (their Content-Security-Policy allows no inline style).',
    tags: ['Console'],
    auth: 'none',
    responses: { 200: { description: 'CSS', contentType: 'text/css' } },
  },
  ...PAGES.flatMap((p) => p.routes),
];

/** A console path in any case: Express routes /CONSOLE/… to the console's pages too, so its middleware must see it. */
function inConsole(req: Request): boolean {
  const path = req.path.toLowerCase();
  return path === CONSOLE_BASE || path.startsWith(`${CONSOLE_BASE}/`);
}
/** Middleware for console paths only (the console's router is mounted beside the API's, at the root). */
const scoped =
  (handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    inConsole(req) ? handler(req, res, next) : next();

/*
 * The travel desk's console (/console): server-rendered pages for people signed in with their own login,
 * never the integration's credential. A strict Content-Security-Policy (no script at all, our own stylesheet
 * only, forms post only here, never framed); every POST passes the anti-forgery check before any page sees it;
 * every request finds its session afresh.
 */
export function consoleRouter(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.use(
    scoped(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'none'"],
            styleSrc: ["'self'"],
            imgSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'none'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
        },
        referrerPolicy: { policy: 'no-referrer' },
        xFrameOptions: { action: 'deny' },
      }),
    ),
  );
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('css').send(CONSOLE_CSS);
  });
  router.use(scoped(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 })));
  router.use(scoped(resolveSession(deps)));
  router.use(scoped(csrfGuard()));
  // The pages see only the paths the middleware above saw: a path the two read differently reaches no page, rather
  // than a page without its headers, session or anti-forgery check.
  router.use((req, _res, next) => (inConsole(req) ? next() : next('router')));
  for (const pages of PAGES) router.use(pages.router(deps));
  router.use(
    scoped((req, res) =>
      messagePage(req, res, 404, 'Page not found', 'There is no such page in the console.', {
        href: CONSOLE_BASE,
        label: 'Go to the review queue',
      }),
    ),
  );
  router.use(consoleErrors(deps));
  return router;
}

/**
 * Errors of console pages as console pages, never the API's JSON; an unexpected one is logged and says nothing of
 * itself. Postgres out of reach (down, restarting, a statement unanswered within the pool's timeout) is an outage,
 * not a bug: 503 with Retry-After, as the API answers, and a page saying to try again in a moment.
 */
function consoleErrors(deps: ConsoleDeps): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (!inConsole(req)) return next(err);
    const e = err as { status?: number; expose?: boolean };
    const status =
      typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose
        ? e.status
        : isDatabaseUnavailable(err)
          ? 503
          : 500;
    if (status >= 500) (req.log ?? deps.logger).error({ err }, 'console request failed');
    if (res.headersSent) return res.destroy();
    if (status === 503) {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return messagePage(
        req,
        res,
        503,
        'Service briefly unavailable',
        'The console is briefly unavailable and could not complete this request; try again in a moment.',
      );
    }
    messagePage(
      req,
      res,
      status,
      status === 500 ? 'Something went wrong' : 'Request not accepted',
      status === 500
        ? 'The console could not complete this request. It has been logged; try again in a moment.'
        : 'The console could not read this request. Go back, reload the page and try again.',
    );
  };
}
