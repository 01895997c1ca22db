import type { TSchema } from '@sinclair/typebox';
import {
  CoverageQuery,
  DEADHEAD_COVERAGE_CSV_COLUMNS,
  DeadheadCoverageList,
  LAYOVER_COVERAGE_CSV_COLUMNS,
  LayoverCoverageList,
  type DeadheadCoverage,
  type LayoverCoverage,
} from '@crew/contracts';
import type { Db, DeadheadCoverageRow, LayoverCoverageRow } from '@crew/db';
import { emptyCoverageCounts, type Classified, type CoverageState } from '@crew/engine';
import { decodeCursor, encodeCursor, errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { cellsOf, sendCsv } from '../http/csv';
import { coverageByStation, deadheadCoverageRows, layoverCoverageRows } from './coverage.service';

const TAGS = ['Coverage'];
const HOUR_MS = 3_600_000;

interface Window {
  from: Date;
  to: Date;
}

function windowOf(query: CoverageQuery, now: () => Date): Window {
  const from = query.from ? new Date(query.from) : now();
  return { from, to: new Date(from.getTime() + (query.hours ?? 72) * HOUR_MS) };
}

type Row = { at: Date; row_key: string; status: CoverageState };

/** Rows in answer order: check-in (departure) instant, then the row's key (unique in an answer). */
function byPosition(a: Row, b: Row): number {
  return a.at.getTime() - b.at.getTime() || (a.row_key < b.row_key ? -1 : a.row_key > b.row_key ? 1 : 0);
}

/**
 * Counts per state and per station over every row of the window, then the page of rows (status filter
 * applied) after the keyset position of the cursor: (instant, key). A cursor stays valid while rows change.
 */
export function coverageReport<T extends Row>(rows: T[], stationOf: (r: T) => string, query: CoverageQuery) {
  const counts = emptyCoverageCounts();
  for (const r of rows) counts[r.status]++;
  const after = decodeCursor<{ t: number; k: string }>(
    query.cursor,
    (v) => Number.isFinite(v.t) && typeof v.k === 'string',
  );
  const matching = rows.filter((r) => !query.status || r.status === query.status).sort(byPosition);
  const limit = query.limit ?? 50;
  const start = after
    ? matching.findIndex((r) => r.at.getTime() > after.t || (r.at.getTime() === after.t && r.row_key > after.k))
    : 0;
  const page = start < 0 ? [] : matching.slice(start, start + limit);
  const more = start >= 0 && start + limit < matching.length;
  const last = page[page.length - 1];
  return {
    counts,
    stations: coverageByStation(rows, stationOf),
    total_results: matching.length,
    rows: page,
    next_cursor: more && last ? encodeCursor({ t: last.at.getTime(), k: last.row_key }) : null,
    matching,
  };
}

export function layoverView(r: Classified<LayoverCoverageRow>): LayoverCoverage {
  return {
    employee_id: r.employee_id,
    pairing_number: r.pairing_number,
    duty_date: r.duty_date,
    duty_period_num: r.duty_period_num,
    station: r.station,
    checkin_time_local: r.checkin_time_local,
    checkout_time_local: r.checkout_time_local,
    traveller_email: r.traveller_email,
    origin: r.origin,
    booking_id: r.booking_id,
    booking_status: r.booking_status,
    status: r.status,
    reason: r.reason,
  };
}

export function deadheadView(r: Classified<DeadheadCoverageRow>): DeadheadCoverage {
  return {
    employee_id: r.employee_id,
    pairing_number: r.pairing_number,
    duty_date: r.duty_date,
    leg_sequence: r.leg_sequence,
    from_airport: r.from_airport,
    to_airport: r.to_airport,
    flight_number: r.flight_number,
    dep_time_local: r.dep_time_local,
    arr_time_local: r.arr_time_local,
    traveller_email: r.traveller_email,
    origin: r.origin,
    booking_id: r.booking_id,
    booking_status: r.booking_status,
    status: r.status,
    reason: r.reason,
  };
}

const DESCRIPTION_TAIL =
  ' The window is `from` (default now) plus `hours` (1..168, default 72). `counts` and `stations` count every row of the window (after `station`), whatever `status` asks; rows come in check-in order, keyset-paginated.';

/** What differs between the layover and the deadhead endpoints: the rows, their view, and the words. */
interface CoverageKind<T extends Row, V extends object> {
  path: string;
  operationId: string;
  csvOperationId: string;
  summary: string;
  csvSummary: string;
  description: string;
  csvDescription: string;
  /** The answer's list property ('layovers' or 'deadheads'). */
  listKey: string;
  list: TSchema;
  listDescription: string;
  csvFilename: string;
  csvColumns: readonly (keyof V & string)[];
  csvRowDescription: string;
  rows: (airlineId: string, w: Window & { station?: string }) => Promise<T[]>;
  stationOf: (r: T) => string;
  view: (r: T) => V;
}

/** The JSON page and the CSV export of one kind of coverage row. */
function coverageEndpoints<T extends Row, V extends object>(k: CoverageKind<T, V>, now: () => Date): RouteSpec[] {
  const report = async (airlineId: string, query: CoverageQuery) => {
    const w = windowOf(query, now);
    const rows = await k.rows(airlineId, { ...w, station: query.station });
    return { w, r: coverageReport(rows, k.stationOf, query) };
  };
  return [
    route({
      method: 'get',
      path: k.path,
      operationId: k.operationId,
      summary: k.summary,
      description: k.description + DESCRIPTION_TAIL,
      tags: TAGS,
      auth: 'events:read',
      query: CoverageQuery,
      responses: { 200: { description: k.listDescription, schema: k.list }, ...errorResponses([400, 401, 403]) },
      handler: async ({ res, query }) => {
        const { w, r } = await report(principal(res).airline_id, query);
        return {
          status: 200,
          body: {
            from: w.from.toISOString(),
            to: w.to.toISOString(),
            counts: r.counts,
            stations: r.stations,
            total_results: r.total_results,
            next_cursor: r.next_cursor,
            [k.listKey]: r.rows.map(k.view),
          },
        };
      },
    }),
    route({
      method: 'get',
      path: `${k.path}.csv`,
      operationId: k.csvOperationId,
      summary: k.csvSummary,
      description: k.csvDescription,
      tags: TAGS,
      auth: 'events:read',
      query: CoverageQuery,
      responses: {
        200: { description: k.csvRowDescription, contentType: 'text/csv' },
        ...errorResponses([400, 401, 403]),
      },
      handler: async ({ res, query }) => {
        const { r } = await report(principal(res).airline_id, query);
        return sendCsv(
          res,
          k.csvFilename,
          k.csvColumns,
          r.matching.map((m) => cellsOf(k.view(m), k.csvColumns)),
        );
      },
    }),
  ];
}

export function coverageRoutes(db: Db, now: () => Date = () => new Date()): RouteSpec[] {
  return [
    ...coverageEndpoints(
      {
        path: '/crew/coverage',
        operationId: 'getLayoverCoverage',
        csvOperationId: 'exportLayoverCoverageCsv',
        summary:
          'Rostered layovers checking in inside a window, each COVERED, AT_RISK or UNCOVERED, with counts per station and state',
        csvSummary: 'The layover coverage of a window as CSV (RFC 4180): every row, no pages',
        description:
          'Every layover (booking_required) of the airline’s latest processed roster, plus live hotel bookings the roster no longer holds (origin DROPPED) and injected stays (origin INJECTED), whose check-in falls inside the window, with its state and the reason when it is not COVERED.',
        csvDescription:
          'The rows of GET /crew/coverage with the same filters (limit and cursor are ignored), in check-in order.',
        listKey: 'layovers',
        list: LayoverCoverageList,
        listDescription: 'Coverage of layovers',
        csvFilename: 'coverage.csv',
        csvColumns: LAYOVER_COVERAGE_CSV_COLUMNS,
        csvRowDescription: 'One row per layover',
        rows: (airlineId, w) => layoverCoverageRows(db, airlineId, w),
        stationOf: (r) => r.station,
        view: layoverView,
      },
      now,
    ),
    ...coverageEndpoints(
      {
        path: '/crew/coverage/deadheads',
        operationId: 'getDeadheadCoverage',
        csvOperationId: 'exportDeadheadCoverageCsv',
        summary:
          'Rostered DH legs departing inside a window, each COVERED (ticketed), AT_RISK or UNCOVERED, with counts per departure station and state',
        csvSummary: 'The deadhead coverage of a window as CSV (RFC 4180): every row, no pages',
        description:
          'Every DH leg of the airline’s latest processed roster, plus live flight bookings the roster no longer holds and injected ones, departing inside the window; `station` filters and groups by the departure airport.',
        csvDescription:
          'The rows of GET /crew/coverage/deadheads with the same filters (limit and cursor are ignored), in departure order.',
        listKey: 'deadheads',
        list: DeadheadCoverageList,
        listDescription: 'Coverage of deadheads',
        csvFilename: 'coverage-deadheads.csv',
        csvColumns: DEADHEAD_COVERAGE_CSV_COLUMNS,
        csvRowDescription: 'One row per DH leg',
        rows: (airlineId, w) => deadheadCoverageRows(db, airlineId, w),
        stationOf: (r) => r.from_airport,
        view: deadheadView,
      },
      now,
    ),
  ];
}
