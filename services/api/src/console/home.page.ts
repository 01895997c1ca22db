import express from 'express';
import type { ConsoleDeps } from './context';
import { html } from './html';
import { consolePage } from './layout';
import { requireConsoleUser } from './session';

/** GET /console: the console's home, where the review queue will be shown. */
export function homePages(_deps: ConsoleDeps): express.Router {
  const router = express.Router();
  router.get('/', requireConsoleUser(), (req, res) => {
    consolePage(req, res, {
      title: 'Review queue',
      body: html`<p>Bookings waiting for the travel desk will be listed here.</p>`,
    });
  });
  return router;
}
