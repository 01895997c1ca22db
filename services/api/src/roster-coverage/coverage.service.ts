import { coverageRepo, type Db, type DeadheadCoverageRow, type LayoverCoverageRow } from '@crew/db';
import {
  classifyDeadheads,
  classifyLayovers,
  emptyCoverageCounts,
  type Classified,
  type CoverageState,
} from '@crew/engine';

/** A coverage window: rows checking in (departing) from `from` up to `to`, optionally at one station. */
export interface CoverageWindow {
  from: Date;
  to: Date;
  station?: string;
}

/** The layovers of the window, each classified COVERED, AT_RISK or UNCOVERED. */
export async function layoverCoverageRows(
  db: Db,
  airlineId: string,
  w: CoverageWindow,
): Promise<Classified<LayoverCoverageRow>[]> {
  return classifyLayovers(await coverageRepo.layoverCoverage(db, airlineId, w));
}

/** The DH legs of the window, each classified (COVERED means ticketed). */
export async function deadheadCoverageRows(
  db: Db,
  airlineId: string,
  w: CoverageWindow,
): Promise<Classified<DeadheadCoverageRow>[]> {
  return classifyDeadheads(await coverageRepo.deadheadCoverage(db, airlineId, w));
}

export type StationCoverage = { station: string } & Record<CoverageState, number>;

/** Counts per station and state, stations in alphabetical order. */
export function coverageByStation<T extends { status: CoverageState }>(
  rows: readonly T[],
  stationOf: (r: T) => string,
): StationCoverage[] {
  const stations = new Map<string, Record<CoverageState, number>>();
  for (const r of rows) {
    const s = stationOf(r);
    const c = stations.get(s) ?? emptyCoverageCounts();
    c[r.status]++;
    stations.set(s, c);
  }
  return [...stations.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([station, c]) => ({ station, ...c }));
}
