import express, { type Request } from 'express';
import { SPEND_GROUP_BY, type SpendGroup, type SpendReport } from '@crew/contracts';
import { ApiError } from '@crew/platform';
import { airlineSpend } from '../reports/spend.service';
import { CONSOLE_BASE, htmlAnswer, redirectAnswer, type ConsolePages, type ConsoleUser } from './context';
import { html, stackedBar, type SafeHtml } from './html';
import { consolePage } from './layout';
import { requireConsoleUser } from './session';

/*
 * The spend chart: GET /crew/reports/spend as a table with a bar per group. The numbers are in the table's
 * cells; the bar repeats them as a picture (booked hotels, booked flights, penalties paid), all groups on one
 * scale. The report is the API's own (spend.service): the console holds no rule of its own.
 */

const SPEND_PATH = `${CONSOLE_BASE}/spend`;
const GROUP_LABEL: Record<(typeof SPEND_GROUP_BY)[number], string> = {
  station: 'Station',
  hotel: 'Hotel',
  month: 'Month',
};
const COLUMNS: { key: Exclude<keyof SpendGroup, 'key'>; label: string; css?: string }[] = [
  { key: 'hotels_booked', label: 'Hotels booked', css: 'hotels' },
  { key: 'flights_booked', label: 'Flights booked', css: 'flights' },
  { key: 'penalties_paid', label: 'Penalties paid', css: 'penalties' },
  { key: 'penalties_avoided', label: 'Penalties avoided' },
  { key: 'disputed', label: 'Disputed' },
];
const CHARTED = COLUMNS.filter((c) => c.css);

function one(req: Request, name: string): string {
  const v = (req.query as Record<string, unknown>)[name];
  return typeof v === 'string' ? v.trim() : '';
}

/** The month of `now` as the default period. */
function monthOf(now: Date): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

function bar(g: SpendGroup, scale: number): SafeHtml {
  return stackedBar(
    CHARTED.map(({ key, css }) => ({ css: css!, width: scale > 0 ? (g[key].amount / scale) * 100 : 0 })),
  );
}

function amount(m: { amount: number; currency: string }): string {
  return m.amount.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function table(r: SpendReport): SafeHtml {
  if (r.groups.length === 0) return html`<p>Nothing was booked, paid or disputed in this period.</p>`;
  const scale = Math.max(...r.groups.map((g) => CHARTED.reduce((sum, c) => sum + g[c.key].amount, 0)));
  return html`<table>
    <caption>
      Spend from ${r.from} to ${r.to} by ${GROUP_LABEL[r.group_by].toLowerCase()}, in ${r.currency}
    </caption>
    <thead>
      <tr>
        <th scope="col">${GROUP_LABEL[r.group_by]}</th>
        ${COLUMNS.map((c) => html`<th scope="col" class="num">${c.label}</th>`)}
        <th scope="col">Booked and paid</th>
      </tr>
    </thead>
    <tbody>
      ${r.groups.map(
        (g) =>
          html`<tr>
            <th scope="row">${g.key}</th>
            ${COLUMNS.map((c) => html`<td class="num">${amount(g[c.key])}</td>`)}
            <td>${bar(g, scale)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function form(q: { from: string; to: string; group_by: string; currency: string }): SafeHtml {
  return html`<form method="get" action="${SPEND_PATH}" class="filters" aria-label="Choose the period">
    <div>
      <label for="s-from">From</label>
      <input id="s-from" name="from" type="date" value="${q.from}" required />
    </div>
    <div>
      <label for="s-to">To</label>
      <input id="s-to" name="to" type="date" value="${q.to}" required />
    </div>
    <div>
      <label for="s-group_by">Group by</label>
      <select id="s-group_by" name="group_by">
        ${SPEND_GROUP_BY.map(
          (g) => html`<option value="${g}" ${g === q.group_by ? html`selected` : ''}>${GROUP_LABEL[g]}</option>`,
        )}
      </select>
    </div>
    <div>
      <label for="s-currency">Currency</label>
      <input id="s-currency" name="currency" type="text" value="${q.currency}" maxlength="3" autocomplete="off" />
    </div>
    <div><button type="submit">Show</button></div>
  </form>`;
}

/** GET /console/spend. */
export const spendPages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: SPEND_PATH,
      operationId: 'consoleSpendChart',
      summary: 'The spend chart (HTML): booked, penalties paid and avoided, disputed, per station, hotel or month',
      description:
        'GET /crew/reports/spend for a period (default: this month) as a table with a bar per group. A console session is needed (VIEWER or AGENT); without one 303 to sign-in.',
      tags: ['Console'],
      auth: 'none',
      responses: { 200: htmlAnswer('The chart'), 303: redirectAnswer('Not signed in: to sign-in') },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    router.get(SPEND_PATH, requireConsoleUser(), async (req, res, next) => {
      try {
        const user = res.locals.consoleUser as ConsoleUser;
        const month = monthOf(deps.now());
        const groupBy = one(req, 'group_by');
        const q = {
          from: one(req, 'from') || month.from,
          to: one(req, 'to') || month.to,
          group_by: (SPEND_GROUP_BY as readonly string[]).includes(groupBy)
            ? (groupBy as (typeof SPEND_GROUP_BY)[number])
            : 'station',
          currency: one(req, 'currency').toUpperCase() || 'USD',
        };
        let body: SafeHtml;
        let status = 200;
        if (!/^[A-Z]{3}$/.test(q.currency)) {
          status = 400;
          body = html`<p role="alert">Currency must be a three-letter code, like USD.</p>`;
        } else {
          try {
            body = table(await airlineSpend(deps.db, user.airline_id, q));
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            status = err.status;
            body = html`<p role="alert">
              ${err.details.map((d) => `${d.field} ${d.issue}`).join('; ') || err.message}
            </p>`;
          }
        }
        consolePage(req, res, {
          title: 'Spend',
          wide: true,
          status,
          body: html`${form(q)}
            <ul class="legend" aria-label="Colours of the bars">
              ${CHARTED.map((c) => html`<li><span class="swatch ${c.css}" aria-hidden="true"></span>${c.label}</li>`)}
            </ul>
            ${body}`,
        });
      } catch (err) {
        next(err);
      }
    });
    return router;
  },
};
