import express, { type Request } from 'express';
import { ACTION_TYPES, ActionItemQueueQuery, checkQuery, type ActionItem } from '@crew/contracts';
import { ApiError } from '@crew/platform';
import { listActionItemQueue } from '../action-items/queue.service';
import { loadReviewSettings } from '../config/review-settings.service';
import { CONSOLE_BASE, htmlAnswer, redirectAnswer, type ConsolePages, type ConsoleUser } from './context';
import { html, type SafeHtml } from './html';
import { alertBox, consolePage } from './layout';
import {
  crewMember,
  instant,
  itemSubject,
  REVIEW_STATUS_LABEL,
  SUBTYPE_LABEL,
  timeLeft,
  urgencyBadge,
  urgencyOf,
} from './review-view';
import { requireConsoleUser } from './session';

/*
 * The review queue (GET /console): the airline's action items that wait for a person, soonest deadline
 * first, each marked overdue, due soon (within the airline's due_soon_minutes) or later, in words and in
 * colour. A plain GET form filters them; "Next page" follows the list's cursor. The list is the one
 * GET /crew/action-items answers: the console holds no rule of its own.
 */

const PAGE_SIZES = [10, 25, 50, 100];
const PAGE_SIZE = 25;
const TYPE_LABEL: Record<string, string> = { HOTEL: 'Layover (hotel)', FLIGHT: 'Deadhead (flight)' };
const STATUSES = ['OPEN', 'RESOLVED', 'DISMISSED'] as const;
const PRIORITIES = ['P1', 'P2', 'P3', 'P4'] as const;
const AIRPORT = /^[A-Z]{3}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Filters {
  review_status: (typeof STATUSES)[number];
  station: string;
  type: string;
  priority: string;
  assignee: string;
  limit: number;
  cursor: string;
}

function one(req: Request, name: string): string {
  const v = (req.query as Record<string, unknown>)[name];
  return typeof v === 'string' ? v.trim() : '';
}

/** `A, B or C`. */
const anyOf = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

/**
 * The form's filters as typed, and the problems with them, each naming its filter as the form labels it (each
 * checked as the API's query is). A value the filter does not know is a problem, never quietly another value:
 * the page would list something other than what was asked for.
 */
function filtersOf(req: Request): { f: Filters; problems: string[] } {
  const status = one(req, 'review_status');
  const limit = one(req, 'limit');
  const f: Filters = {
    review_status: (STATUSES as readonly string[]).includes(status) ? (status as Filters['review_status']) : 'OPEN',
    station: one(req, 'station').toUpperCase(),
    type: one(req, 'type'),
    priority: one(req, 'priority'),
    assignee: one(req, 'assignee').toLowerCase(),
    limit: /^\d{1,3}$/.test(limit) ? Number(limit) : limit ? NaN : PAGE_SIZE,
    cursor: one(req, 'cursor'),
  };
  const problems: string[] = [];
  if (status && status !== f.review_status)
    problems.push(`Status must be ${anyOf(STATUSES.map((s) => REVIEW_STATUS_LABEL[s]!))}.`);
  if (f.station && !AIRPORT.test(f.station)) problems.push('Station must be a three-letter airport code, like JFK.');
  if (f.type && !(ACTION_TYPES as readonly string[]).includes(f.type)) {
    problems.push(`Type must be ${anyOf(ACTION_TYPES.map((t) => TYPE_LABEL[t]!))}.`);
    f.type = '';
  }
  if (f.priority && !(PRIORITIES as readonly string[]).includes(f.priority)) {
    problems.push(`Priority must be ${anyOf(PRIORITIES)}.`);
    f.priority = '';
  }
  if (f.assignee && (!EMAIL.test(f.assignee) || f.assignee.length > 254))
    problems.push('Assignee must be an e-mail address.');
  // Any size the API allows (1..200) is taken; the form offers a few.
  if (!Number.isInteger(f.limit) || f.limit < 1 || f.limit > 200) {
    problems.push('Per page must be a whole number from 1 to 200.');
    f.limit = PAGE_SIZE;
  }
  return { f, problems };
}

function queryOf(f: Filters): ActionItemQueueQuery {
  return {
    review_status: f.review_status,
    ...(f.review_status === 'OPEN' ? { sort: 'due_by' as const } : {}),
    ...(f.station ? { station: f.station } : {}),
    ...(f.type ? { type: f.type as ActionItemQueueQuery['type'] } : {}),
    ...(f.priority ? { priority: f.priority as ActionItemQueueQuery['priority'] } : {}),
    ...(f.assignee ? { assignee: f.assignee } : {}),
    ...(f.cursor ? { cursor: f.cursor } : {}),
    limit: f.limit,
  };
}

/** The page's own address with these filters (and a cursor). */
function linkOf(f: Filters, cursor: string): string {
  const q = new URLSearchParams();
  for (const k of ['review_status', 'station', 'type', 'priority', 'assignee'] as const) if (f[k]) q.set(k, f[k]);
  if (f.limit !== PAGE_SIZE) q.set('limit', String(f.limit));
  q.set('cursor', cursor);
  return `${CONSOLE_BASE}?${q.toString()}`;
}

function select(name: string, label: string, value: string, options: [string, string][]): SafeHtml {
  return html`<div>
    <label for="f-${name}">${label}</label>
    <select id="f-${name}" name="${name}">
      ${options.map(([v, text]) => html`<option value="${v}" ${v === value ? html`selected` : ''}>${text}</option>`)}
    </select>
  </div>`;
}

function filterForm(f: Filters, user: ConsoleUser): SafeHtml {
  return html`<form method="get" action="${CONSOLE_BASE}" class="filters" aria-label="Filter the queue">
    ${select(
      'review_status',
      'Status',
      f.review_status,
      STATUSES.map((s) => [s, REVIEW_STATUS_LABEL[s]!]),
    )}
    <div>
      <label for="f-station">Station</label>
      <input id="f-station" name="station" type="text" value="${f.station}" maxlength="3" autocomplete="off" />
    </div>
    ${select('type', 'Type', f.type, [['', 'Any type'], ...ACTION_TYPES.map((t): [string, string] => [t, TYPE_LABEL[t]!])])}
    ${select('priority', 'Priority', f.priority, [['', 'Any priority'], ...PRIORITIES.map((p): [string, string] => [p, p])])}
    <div>
      <label for="f-assignee">Assignee</label>
      <input
        id="f-assignee"
        name="assignee"
        type="text"
        inputmode="email"
        value="${f.assignee}"
        placeholder="${user.email}"
        autocomplete="off"
      />
    </div>
    ${select(
      'limit',
      'Per page',
      String(f.limit),
      (PAGE_SIZES.includes(f.limit) ? PAGE_SIZES : [...PAGE_SIZES, f.limit].sort((x, y) => x - y)).map(
        (size): [string, string] => [String(size), String(size)],
      ),
    )}
    <div><button type="submit">Filter</button></div>
  </form>`;
}

function row(item: ActionItem, now: Date, dueSoon: number): SafeHtml {
  const u = urgencyOf(item, now, dueSoon);
  const left = item.review_status === 'OPEN' && item.due_by ? timeLeft(item.due_by, now) : '';
  return html`<tr class="due-${u}">
    <td>
      ${urgencyBadge(u)}${left ? html`<br />${left}` : ''}${
        item.due_by ? html`<br /><span class="hint">due ${instant(item.due_by)}</span>` : ''
      }
    </td>
    <td>
      <a href="${CONSOLE_BASE}/items/${item.action_id}">${itemSubject(item)}</a><br />
      <span class="hint">${item.classification} · ${SUBTYPE_LABEL[item.subtype] ?? item.subtype}</span>
    </td>
    <td>${crewMember(item)}</td>
    <td>${item.anchors.pairing_number ?? '—'}<br /><span class="hint">${item.anchors.duty_date ?? ''}</span></td>
    <td>${item.priority}</td>
    <td>${item.message ?? item.recommended_action ?? item.disposition ?? '—'}</td>
    <td>${item.assignee ?? 'Nobody'}</td>
  </tr>`;
}

function table(items: ActionItem[], now: Date, dueSoon: number): SafeHtml {
  if (items.length === 0) return html`<p role="status">No action items match these filters.</p>`;
  return html`<table>
    <caption>
      Action items, soonest deadline first
    </caption>
    <thead>
      <tr>
        <th scope="col">Time left</th>
        <th scope="col">Item</th>
        <th scope="col">Crew member</th>
        <th scope="col">Pairing</th>
        <th scope="col">Priority</th>
        <th scope="col">Why in review</th>
        <th scope="col">Assignee</th>
      </tr>
    </thead>
    <tbody>
      ${items.map((i) => row(i, now, dueSoon))}
    </tbody>
  </table>`;
}

/** GET /console. */
export const queuePages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: CONSOLE_BASE,
      operationId: 'consoleReviewQueue',
      summary: 'The review queue (HTML): the action items that wait for a person, soonest deadline first',
      description:
        'The console’s home. Query `review_status` (OPEN by default), `station`, `type`, `priority`, `assignee` filter as GET /crew/action-items does, `limit` (1 to 200, 25 by default) is the page size; `cursor` is the "Next page" link’s. ' +
        'A value a filter does not know (`priority=p1`, `limit=0`) is 400: the alert names the filter and nothing is listed. ' +
        'Each item is marked Overdue, Due soon (within the airline’s due_soon_minutes) or Later. ' +
        'Needs a console session: without one (none, ended, or its person revoked) 303 to the sign-in page, which comes back here afterwards.',
      tags: ['Console'],
      auth: 'none',
      responses: {
        200: htmlAnswer('The page'),
        303: redirectAnswer('Not signed in: to sign-in'),
        400: htmlAnswer(
          'A filter value the queue does not know, or an out-of-date cursor: the page with the form, an alert naming each filter, and no list',
        ),
      },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    router.get(CONSOLE_BASE, requireConsoleUser(), async (req, res, next) => {
      try {
        const user = res.locals.consoleUser as ConsoleUser;
        const { f, problems } = filtersOf(req);
        const now = deps.now();
        let list: SafeHtml = html``;
        // The API's own query schema checks what the form sends, as it checks GET /crew/action-items.
        const checked = checkQuery(ActionItemQueueQuery, queryOf(f));
        if (problems.length === 0 && !checked.ok)
          problems.push('These filters cannot be used; clear them and try again.');
        if (problems.length === 0 && checked.ok) {
          try {
            const [page, settings] = await Promise.all([
              listActionItemQueue(deps, user.airline_id, checked.value),
              loadReviewSettings(deps.db, user.airline_id),
            ]);
            list = html`${table(page.action_items, now, settings.due_soon_minutes)}
            ${page.next_cursor ? html`<p class="pager"><a href="${linkOf(f, page.next_cursor)}">Next page</a></p>` : ''}`;
          } catch (err) {
            if (!(err instanceof ApiError && err.status === 400)) throw err;
            problems.push('This page link is out of date. Filter again to start from the first page.');
          }
        }
        consolePage(req, res, {
          title: 'Review queue',
          // Filters the queue cannot use list nothing: the alert says which, the form is there to correct them.
          status: problems.length ? 400 : 200,
          wide: true,
          body: html`${alertBox(problems.join(' ') || null)} ${filterForm(f, user)} ${list}`,
        });
      } catch (err) {
        next(err);
      }
    });
    return router;
  },
};
