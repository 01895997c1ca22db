import express, { type ErrorRequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { authenticatorPages } from './authenticator.page';
import { CONSOLE_BASE, consoleDeps, type ConsoleDeps } from './context';
import { homePages } from './home.page';
import { invitePages } from './invite.page';
import { CONSOLE_CSS, messagePage } from './layout';
import { csrfGuard, resolveSession } from './session';
import { signInPages } from './sign-in.page';

export { CONSOLE_BASE, consoleDeps };

/** A group of console pages: a router whose pages each start with `requireConsoleUser(role?)` and render with `consolePage`. */
export type ConsolePages = (deps: ConsoleDeps) => Router;

/** The console's pages behind sign-in; a new page group is added to this list. */
const PAGES: ConsolePages[] = [homePages, authenticatorPages];

/*
 * The travel desk's console (mounted at /console): server-rendered pages for people signed in with their own
 * login, never the integration's credential. A strict Content-Security-Policy (no script at all, our own
 * stylesheet only, forms post only here, never framed); every POST passes the anti-forgery check before any
 * page sees it; every request finds its session afresh.
 */
export function consoleRouter(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.use(
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
  );
  router.get('/assets/console.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('css').send(CONSOLE_CSS);
  });
  router.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 }));
  router.use(resolveSession(deps));
  router.use(csrfGuard());
  router.use(signInPages(deps));
  router.use(invitePages(deps));
  for (const pages of PAGES) router.use(pages(deps));
  router.use((req, res) => {
    messagePage(req, res, 404, 'Page not found', 'There is no such page in the console.', {
      href: CONSOLE_BASE,
      label: 'Go to the review queue',
    });
  });
  router.use(consoleErrors(deps));
  return router;
}

/** Errors as console pages, never the API's JSON; an unexpected one is logged and says nothing of itself. */
function consoleErrors(deps: ConsoleDeps): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const e = err as { status?: number; expose?: boolean };
    const status = typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose ? e.status : 500;
    if (status === 500) (req.log ?? deps.logger).error({ err }, 'console request failed');
    if (res.headersSent) return res.destroy();
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
