import express from 'express';
import type { CoverageState } from '@crew/engine';
import {
  coverageByStation,
  deadheadCoverageRows,
  layoverCoverageRows,
  type StationCoverage,
} from '../roster-coverage/coverage.service';
import {
  CONSOLE_BASE,
  htmlAnswer,
  redirectAnswer,
  type ConsoleDeps,
  type ConsolePages,
  type ConsoleUser,
} from './context';
import { html, stackedBar, type SafeHtml } from './html';
import { consolePage } from './layout';
import { requireConsoleUser } from './session';

/*
 * The coverage board: for the next 24 and 72 hours, how many layovers and deadheads of each station are
 * covered, at risk or uncovered (the same rows as GET /crew/coverage). Every number is in a table cell under
 * its header; the bar beside it only repeats the numbers as a picture.
 */

const COVERAGE_PATH = `${CONSOLE_BASE}/coverage`;
const HOUR_MS = 3_600_000;
const WINDOWS = [24, 72] as const;

const STATES: { state: CoverageState; label: string; css: string }[] = [
  { state: 'COVERED', label: 'Covered', css: 'covered' },
  { state: 'AT_RISK', label: 'At risk', css: 'at-risk' },
  { state: 'UNCOVERED', label: 'Uncovered', css: 'uncovered' },
];

/** A bar of one station: a segment per state, as wide as its share of the station's rows. */
function bar(c: StationCoverage): SafeHtml {
  const total = c.COVERED + c.AT_RISK + c.UNCOVERED;
  return stackedBar(STATES.map(({ state, css }) => ({ css, width: total ? (c[state] / total) * 100 : 0 })));
}

function table(caption: string, stationHeader: string, rows: StationCoverage[]): SafeHtml {
  if (rows.length === 0) return html`<p>${caption}: none in this window.</p>`;
  return html`<table>
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${stationHeader}</th>
        ${STATES.map((s) => html`<th scope="col" class="num">${s.label}</th>`)}
        <th scope="col">Share</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr>
            <th scope="row">${r.station}</th>
            ${STATES.map((s) => html`<td class="num">${r[s.state]}</td>`)}
            <td>${bar(r)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

async function windowSection(deps: ConsoleDeps, user: ConsoleUser, hours: number): Promise<SafeHtml> {
  const from = deps.now();
  const w = { from, to: new Date(from.getTime() + hours * HOUR_MS) };
  const [layovers, deadheads] = await Promise.all([
    layoverCoverageRows(deps.db, user.airline_id, w),
    deadheadCoverageRows(deps.db, user.airline_id, w),
  ]);
  return html`<section aria-labelledby="next-${hours}">
    <h2 id="next-${hours}">Next ${hours} hours</h2>
    ${table(
      `Layovers checking in within ${hours} hours, by station`,
      'Station',
      coverageByStation(layovers, (r) => r.station),
    )}
    ${table(
      `Deadheads departing within ${hours} hours, by departure station`,
      'Departure station',
      coverageByStation(deadheads, (r) => r.from_airport),
    )}
  </section>`;
}

/** GET /console/coverage. */
export const coveragePages: ConsolePages = {
  routes: [
    {
      method: 'get',
      path: COVERAGE_PATH,
      operationId: 'consoleCoverageBoard',
      summary: 'The coverage board (HTML): covered, at risk and uncovered layovers and deadheads per station',
      description:
        'For the next 24 and 72 hours, per station: how many layovers (by station) and deadheads (by departure station) are covered, at risk or uncovered, ' +
        'counted as GET /crew/coverage and /crew/coverage/deadheads count them. A console session is needed (VIEWER or AGENT); without one 303 to sign-in.',
      tags: ['Console'],
      auth: 'none',
      responses: { 200: htmlAnswer('The board'), 303: redirectAnswer('Not signed in: to sign-in') },
    },
  ],
  router: (deps) => {
    const router = express.Router();
    router.get(COVERAGE_PATH, requireConsoleUser(), async (req, res, next) => {
      try {
        const user = res.locals.consoleUser as ConsoleUser;
        const sections = [];
        for (const hours of WINDOWS) sections.push(await windowSection(deps, user, hours));
        consolePage(req, res, {
          title: 'Coverage',
          wide: true,
          body: html`<p>
              Rostered layovers and deadheads from now on: covered (booked, or ticketed), at risk (a booking still
              pending, in review or failed, or no longer matching the roster), or uncovered (no live booking).
            </p>
            <ul class="legend" aria-label="Colours of the bars">
              ${STATES.map((s) => html`<li><span class="swatch ${s.css}" aria-hidden="true"></span>${s.label}</li>`)}
            </ul>
            ${sections}`,
        });
      } catch (err) {
        next(err);
      }
    });
    return router;
  },
};
