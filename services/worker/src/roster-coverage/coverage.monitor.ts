import { coverageRepo, type Classified, type Db, type LayoverCoverageRow } from '@crew/db';
import type { Logger } from '@crew/platform';

const HOUR_MS = 3_600_000;
/** The horizon of the gauges and of coverage.at_risk events. */
export const COVERAGE_HORIZON_HOURS = 24;
/** The alert's horizon: an UNCOVERED layover checking in this soon pages someone. */
export const UNCOVERED_ALERT_HOURS = 12;

export interface CoverageFigures {
  airline_id: string;
  at_risk: number;
  uncovered: number;
  uncovered_12h: number;
}

/** A layover that became AT_RISK inside the horizon since the previous sample. */
export interface AtRiskLayover {
  airline_id: string;
  layover: Classified<LayoverCoverageRow>;
}

export interface CoverageMonitorDeps {
  db: Db;
  logger: Logger;
  /** Where the figures go (PromWorkerMetrics.setCoverage). */
  report: (figures: CoverageFigures[], at: number) => void;
  /**
   * Called with the layovers that just became AT_RISK inside 24 h: the hook of the `coverage.at_risk` webhook
   * event. Default: nothing (see docs/decisions.md, "Coverage monitor").
   */
  onAtRisk?: (layovers: AtRiskLayover[]) => Promise<void>;
  now?: () => Date;
  /** How often the coverage is recomputed (default 60 s). */
  intervalMs?: number;
}

/**
 * Recomputes, per airline, how many layovers checking in within the next 24 h are AT_RISK or UNCOVERED (and
 * UNCOVERED within 12 h), periodically rather than per scrape: a scrape never waits on it, and its cost does
 * not grow with the number of Prometheus replicas. The states are the coverage API's (the engine's coverageOf).
 */
export class CoverageMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CoverageFigures[]> | null = null;

  constructor(private readonly deps: CoverageMonitorDeps) {}

  start(): this {
    this.timer = setInterval(() => void this.sample().catch((err) => this.deps.logger.warn({ err }, 'coverage sampling failed')), this.deps.intervalMs ?? 60_000);
    this.timer.unref();
    void this.sample().catch((err) => this.deps.logger.warn({ err }, 'coverage sampling failed'));
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass (a pass already under way is joined, not doubled). */
  sample(): Promise<CoverageFigures[]> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<CoverageFigures[]> {
    const now = this.deps.now?.() ?? new Date();
    const to = new Date(now.getTime() + COVERAGE_HORIZON_HOURS * HOUR_MS);
    const alertBy = now.getTime() + UNCOVERED_ALERT_HOURS * HOUR_MS;
    const airlines = await coverageRepo.airlinesWithLayovers(this.deps.db, now, to);
    const figures: CoverageFigures[] = [];
    const newlyAtRisk: AtRiskLayover[] = [];
    for (const airlineId of airlines) {
      const rows = await coverageRepo.classifiedLayoverCoverage(this.deps.db, airlineId, { from: now, to });
      const atRisk = rows.filter((r) => r.status === 'AT_RISK');
      const uncovered = rows.filter((r) => r.status === 'UNCOVERED');
      figures.push({ airline_id: airlineId, at_risk: atRisk.length, uncovered: uncovered.length, uncovered_12h: uncovered.filter((r) => r.at.getTime() < alertBy).length });
      const fresh = await coverageRepo.markAtRisk(this.deps.db, airlineId, atRisk);
      for (const r of atRisk) if (fresh.has(r.row_key)) newlyAtRisk.push({ airline_id: airlineId, layover: r });
    }
    await coverageRepo.forgetAtRiskExcept(this.deps.db, airlines);
    this.deps.report(figures, now.getTime());
    if (newlyAtRisk.length && this.deps.onAtRisk) await this.deps.onAtRisk(newlyAtRisk);
    return figures;
  }
}
