import express from 'express';
import { CONSOLE_BASE, htmlAnswer, redirectAnswer, type ConsolePages } from './context';
import { html } from './html';
import { consolePage } from './layout';
import { requireConsoleUser } from './session';

/** GET /console: the console's home, where the review queue will be shown. */
export const homePages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: CONSOLE_BASE,
      operationId: 'consoleHome',
      summary: 'The console’s home page (HTML): the review queue',
      description:
        'Needs a console session: without one (none, ended, or its person revoked) 303 to the sign-in page, which comes back here afterwards.',
      tags: ['Console'],
      auth: 'none',
      responses: { 200: htmlAnswer('The page'), 303: redirectAnswer('Not signed in: to sign-in') },
    },
  ],
  router: () => {
    const router = express.Router();
    router.get(CONSOLE_BASE, requireConsoleUser(), (req, res) => {
      consolePage(req, res, {
        title: 'Review queue',
        body: html`<p>Bookings waiting for the travel desk will be listed here.</p>`,
      });
    });
    return router;
  },
};
