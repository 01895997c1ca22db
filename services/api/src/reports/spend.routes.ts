/**
 * The spend report: what the airline booked, the fees it paid and avoided, and what it disputes, per station,
 * hotel or month, in one reporting currency. The sums are the engine's; the amounts are read in one query.
 */
import { SPEND_CSV_COLUMNS, SpendQuery, SpendReport } from '@crew/contracts';
import type { Db } from '@crew/db';
import { errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { sendCsv } from '../http/csv';
import { airlineSpend } from './spend.service';

const TAGS = ['Reports'];
const DESCRIPTION =
  'Dates are inclusive and compared with stays’ check-in and flights’ departure dates. Each amount is converted into `currency` (default USD) at the operator’s FX rate of its own date; an amount without a rate is left out and counted in `unconverted`. `penalties_avoided` sums, over the hotel cancellations made in time, the late-cancellation fee each would have cost after the deadline.';

export function spendRoutes(db: Db): RouteSpec[] {
  const report = (airlineId: string, query: SpendQuery) => airlineSpend(db, airlineId, query);

  return [
    route({
      method: 'get',
      path: '/crew/reports/spend',
      operationId: 'getSpendReport',
      summary: 'Spend over a period per station, hotel or month: booked, penalties paid and avoided, disputed',
      description: DESCRIPTION,
      tags: TAGS,
      auth: 'events:read',
      query: SpendQuery,
      responses: { 200: { description: 'The report', schema: SpendReport }, ...errorResponses([400, 401, 403, 422]) },
      handler: async ({ res, query }) => ({ status: 200, body: await report(principal(res).airline_id, query) }),
    }),
    route({
      method: 'get',
      path: '/crew/reports/spend.csv',
      operationId: 'exportSpendReportCsv',
      summary: 'The spend report as CSV (RFC 4180): one row per group, amounts in the report’s currency',
      description: DESCRIPTION,
      tags: TAGS,
      auth: 'events:read',
      query: SpendQuery,
      responses: {
        200: { description: 'One row per group', contentType: 'text/csv' },
        ...errorResponses([400, 401, 403, 422]),
      },
      handler: async ({ res, query }) => {
        const r = await report(principal(res).airline_id, query);
        const rows = r.groups.map((g) => [
          g.key,
          r.currency,
          g.hotels_booked.amount,
          g.flights_booked.amount,
          g.penalties_paid.amount,
          g.penalties_avoided.amount,
          g.disputed.amount,
        ]);
        return sendCsv(res, `spend-${r.from}-${r.to}.csv`, SPEND_CSV_COLUMNS, rows);
      },
    }),
  ];
}
