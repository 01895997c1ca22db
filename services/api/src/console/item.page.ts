import express, { type Request, type Response } from 'express';
import { checkBody, isUuid, ReviewActionBody } from '@crew/contracts';
import { bookingRepo, configRepo, scheduleRepo } from '@crew/db';
import { ApiError } from '@crew/platform';
import { Type } from '@sinclair/typebox';
import { actOnActionItem } from '../action-items/act.service';
import { actionItemViews } from '../action-items/views';
import { loadReviewSettings } from '../config/review-settings.service';
import { flightOptions } from '../search/flight-options.service';
import {
  CONSOLE_BASE,
  htmlAnswer,
  redirectAnswer,
  type ConsoleDeps,
  type ConsolePages,
  type ConsoleUser,
} from './context';
import { html } from './html';
import { actionForms, type OptionsAnswer } from './item-actions';
import { crewSection, historySection, statusSection, tripSection, whySection } from './item-context';
import { alertBox, consolePage, messagePage } from './layout';
import { ACTION_LABEL, itemSubject, urgencyOf } from './review-view';
import { requireConsoleUser } from './session';

/*
 * One action item (GET /console/items/:action_id): its context and, for an AGENT, its available actions as
 * forms. Acting (POST …/actions) calls the same service as POST /crew/action-items/{action_id}/actions and
 * comes back here (303) with the outcome; when someone else acted first (409) the page says so and shows the
 * item as it is now. Another airline's item is not found.
 */

const ITEM_PATH = `${CONSOLE_BASE}/items/:action_id`;
const FIELDS = ['flight_option_id', 'property_id', 'pnr', 'ticket_id', 'reason', 'assignee'] as const;
const TAGS = ['Console'];
const PARAMS = Type.Object({ action_id: Type.String({ format: 'uuid', description: 'The action item' }) });

interface Shown {
  status?: number;
  alert?: string;
  notice?: string;
}

const user = (res: Response) => res.locals.consoleUser as ConsoleUser;

function notFound(req: Request, res: Response): void {
  messagePage(req, res, 404, 'Action item not found', 'There is no such action item for your airline.', {
    href: CONSOLE_BASE,
    label: 'Back to the review queue',
  });
}

/** A message written as a sentence of its own, continuing one: no capital (unless an acronym's), no full stop. */
function midSentence(message: string): string {
  const m = message.trim().replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(m) ? m[0]!.toLowerCase() + m.slice(1) : m;
}

/**
 * The live options of a deadhead, as GET /crew/flight-options?action_id= finds them, or why there are none. A
 * person waits on the page, so it waits for the search only CONSOLE_FLIGHT_OPTIONS_TIMEOUT_MS, not the
 * supplier's own deadline and retries; a search given up on ends unheard.
 */
async function optionsOf(deps: ConsoleDeps, airlineId: string, actionId: string): Promise<OptionsAnswer> {
  const search = flightOptions(deps.flightOptions, airlineId, { action_id: actionId, limit: 10 });
  // Its failure after the page gave up on it is no one's to handle.
  search.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deps.config.consoleFlightOptionsTimeoutMs);
  });
  try {
    const found = await Promise.race([search, late]);
    if (found !== 'late') return found;
    deps.logger.warn(
      {
        event: 'console_flight_options_late',
        action_id: actionId,
        timeout_ms: deps.config.consoleFlightOptionsTimeoutMs,
      },
      'flight options search outlasted the item page’s deadline',
    );
    return {
      problem:
        'Flight options cannot be shown: the flight supplier did not answer in time; reload the page to search again.',
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The page found the item, so a 404 means the search finds no route and date in it (an item stored without
    // them): the person still has the item's other actions.
    if (err.status === 404)
      return {
        problem: 'Flight options cannot be searched for this item: it does not give the route and date a search needs.',
      };
    // The API's own words (written to stand alone) would read twice "right now", a capital mid-sentence.
    if (err.status === 503)
      return {
        problem:
          'Flight options cannot be shown: the flight supplier cannot be reached; reload the page shortly to search again.',
      };
    return { problem: `Flight options cannot be shown: ${midSentence(err.message)}.` };
  } finally {
    clearTimeout(timer);
  }
}

async function renderItem(deps: ConsoleDeps, req: Request, res: Response, actionId: string, shown: Shown) {
  const me = user(res);
  const row = isUuid(actionId) ? await scheduleRepo.findActionItem(deps.db, me.airline_id, actionId) : undefined;
  if (!row) return notFound(req, res);
  const [[item], settings] = await Promise.all([
    actionItemViews(deps.db, me.airline_id, [row]),
    loadReviewSettings(deps.db, me.airline_id),
  ]);
  if (!item) return notFound(req, res);
  const booking = item.booking_id ? await bookingRepo.findBooking(deps.db, item.booking_id, me.airline_id) : undefined;
  const history = booking ? await bookingRepo.bookingHistory(deps.db, booking.booking_id) : [];
  const agent = me.role === 'AGENT';
  const can = new Set(item.available_actions);
  const [options, hotels] = await Promise.all([
    agent && can.has('BOOK_FLIGHT_OPTION') ? optionsOf(deps, me.airline_id, item.action_id) : undefined,
    agent && can.has('BOOK_HOTEL') && item.details.station
      ? configRepo
          .currentHotels(deps.db, me.airline_id)
          .then((hs) => hs.filter((h) => h.base_station === item.details.station))
      : undefined,
  ]);
  // The page searched the options and found none: the engine decides the actions again knowing it (no BOOK_FLIGHT_OPTION).
  const searchedNone = options !== undefined && 'options' in options && options.options.length === 0;
  const actionable = searchedNone
    ? ((await actionItemViews(deps.db, me.airline_id, [row], { flight_options_available: false }))[0] ?? item)
    : item;
  const now = deps.now();
  const actions = agent
    ? actionForms(res, { item: actionable, booking, user: me, flightOptions: options, hotels })
    : html`<p>Your role in the console only lets you read: an agent takes the actions.</p>`;
  consolePage(req, res, {
    title: itemSubject(item),
    status: shown.status,
    wide: true,
    body: html`${alertBox(shown.alert)} ${alertBox(shown.notice, 'notice')}
      <p><a href="${CONSOLE_BASE}">Back to the review queue</a></p>
      ${statusSection(item, urgencyOf(item, now, settings.due_soon_minutes), now)} ${crewSection(item)}
      ${tripSection(item, booking)} ${whySection(item, booking)}
      <section aria-labelledby="actions-h">
        <h2 id="actions-h">Actions</h2>
        ${actions}
      </section>
      ${historySection(booking, history)}`,
  });
}

/** What the form asked for, as the API's body: the action and the inputs it filled in (blank ones left out). */
function bodyOf(req: Request): Record<string, string> {
  const form = (req.body ?? {}) as Record<string, unknown>;
  const body: Record<string, string> = {};
  for (const k of ['action', ...FIELDS]) {
    const v = form[k];
    if (typeof v === 'string' && v.trim() !== '') body[k] = v.trim();
  }
  return body;
}

const DONE: Record<string, string> = {
  BOOK_FLIGHT_OPTION: 'The flight is being booked: the booking history shows when the supplier confirms it.',
  BOOK_HOTEL: 'The hotel is being booked: the booking history shows when the supplier confirms it.',
  RETRY: 'The booking task runs again: the booking history shows its outcome.',
  CANCEL_BOOKING: 'The booking is being cancelled: the booking history shows when the supplier confirms it.',
  DISMISS: 'The item is dismissed.',
  ASSIGN: 'The item is assigned.',
};

/** GET /console/items/:action_id and POST /console/items/:action_id/actions. */
export const itemPages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: ITEM_PATH,
      operationId: 'consoleActionItem',
      summary: 'One action item (HTML): its context, its booking’s history and, for an AGENT, its actions',
      description:
        'The crew member, pairing, rostered and booked flight (or layover and hotel), why the item is in review and the booking’s history; ' +
        'for an AGENT each available action as a form (a deadhead’s live flight options each with a Book button). ' +
        'An item of another airline, or no item, is 404. Without a session 303 to sign-in.',
      tags: TAGS,
      auth: 'none',
      params: PARAMS,
      responses: {
        200: htmlAnswer('The page'),
        303: redirectAnswer('Not signed in: to sign-in'),
        404: htmlAnswer('No such action item for the airline'),
      },
    },
    {
      method: 'post',
      path: `${ITEM_PATH}/actions`,
      operationId: 'consoleActOnActionItem',
      summary: 'An agent’s action on an action item (the item page’s forms)',
      description:
        'Form fields `csrf_token`, `action` (one of the item’s available_actions) and the inputs the action needs (`flight_option_id`, `property_id`, `pnr`, `ticket_id`, `reason`, `assignee`), ' +
        'carried out as POST /crew/action-items/{action_id}/actions is, the person’s e-mail as acting_user. ' +
        'Success: 303 to the item page, which shows the outcome. 409: the action is no longer available (someone else acted first); 422: an input is missing; 503 (with Retry-After): a supplier the action needs did not answer; each shows the item page again with the reason, nothing done. ' +
        'A VIEWER is refused (403), as is a form without the session’s csrf_token.',
      tags: TAGS,
      auth: 'none',
      params: PARAMS,
      responses: {
        303: redirectAnswer('Done: to the item page'),
        403: htmlAnswer('A VIEWER, or without the session’s csrf_token'),
        404: htmlAnswer('No such action item for the airline'),
        409: htmlAnswer('The action is no longer available: the item page with the reason'),
        422: htmlAnswer('An input is missing or not valid: the item page with the reason'),
        503: htmlAnswer(
          'A supplier the action needs did not answer (Duffel, accepting an airline’s change): the item page with the reason and Retry-After; nothing was done',
        ),
      },
    },
  ],
  router: (deps) => {
    const router = express.Router();

    router.get(ITEM_PATH, requireConsoleUser(), async (req, res, next) => {
      try {
        const done = typeof req.query.done === 'string' ? req.query.done : '';
        // Own names only: `in` would take an inherited one (?done=constructor) and print a function.
        const notice = Object.hasOwn(ACTION_LABEL, done)
          ? `${ACTION_LABEL[done]}: done. ${DONE[done] ?? ''}`.trim()
          : undefined;
        await renderItem(deps, req, res, String(req.params.action_id), { notice });
      } catch (err) {
        next(err);
      }
    });

    router.post(`${ITEM_PATH}/actions`, requireConsoleUser('AGENT'), async (req, res, next) => {
      const actionId = String(req.params.action_id);
      try {
        if (!isUuid(actionId)) return notFound(req, res);
        const me = user(res);
        const checked = checkBody(ReviewActionBody, bodyOf(req));
        if (!checked.ok) {
          const what = checked.issues.map((i) => `${i.field.replace(/^\//, '') || 'action'} ${i.issue}`).join('; ');
          return renderItem(deps, req, res, actionId, { status: 422, alert: `The action was not taken: ${what}.` });
        }
        try {
          await actOnActionItem(deps, { airline_id: me.airline_id, email: me.email }, actionId, {
            ...checked.value,
            acting_user: me.email,
          });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.status === 404) return notFound(req, res);
          if (err.status === 409)
            return renderItem(deps, req, res, actionId, {
              status: 409,
              alert: `The action was not taken: someone else acted on this item first, or it changed meanwhile (${err.message}). The page shows the item as it is now.`,
            });
          // Any other refusal the API would answer (a missing input, a supplier that did not answer: 503 with
          // Retry-After) is the item page with its status and reason: nothing was done, the person may try again.
          const retryAfter = err.headers['Retry-After'];
          if (retryAfter) res.set('Retry-After', retryAfter);
          return renderItem(deps, req, res, actionId, {
            status: err.status === 400 ? 422 : err.status,
            alert: `The action was not taken: ${err.message.replace(/\.$/, '')}.`,
          });
        }
        deps.logger.info(
          { event: 'console_action', user_id: me.user_id, action_id: actionId, action: checked.value.action },
          'console action taken',
        );
        res.redirect(303, `${CONSOLE_BASE}/items/${actionId}?done=${checked.value.action}`);
      } catch (err) {
        next(err);
      }
    });

    return router;
  },
};
