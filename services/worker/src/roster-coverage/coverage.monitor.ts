import { coverageRepo, webhookRepo, type Db, type DbOrTrx, type LayoverCoverageRow } from '@crew/db';
import { classifyLayovers, type Classified } from '@crew/engine';
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
   * Called, per airline, with its layovers that just became AT_RISK inside 24 h, inside the transaction that
   * marks them: the `coverage.at_risk` webhook events written to the outbox through `trx`
   * (emitCoverageAtRisk, which the runtime passes). When it throws, the marks roll back with it and the next
   * pass finds the layovers new again. Default: nothing.
   */
  onAtRisk?: (trx: DbOrTrx, layovers: AtRiskLayover[]) => Promise<void>;
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
  /** Each airline's figures of the previous pass (kept for an airline whose sampling fails). */
  private last = new Map<string, CoverageFigures>();
  private closed = false;

  constructor(private readonly deps: CoverageMonitorDeps) {}

  start(): this {
    this.timer = setInterval(
      () => void this.sample().catch((err) => this.deps.logger.warn({ err }, 'coverage sampling failed')),
      this.deps.intervalMs ?? 60_000,
    );
    this.timer.unref();
    void this.sample().catch((err) => this.deps.logger.warn({ err }, 'coverage sampling failed'));
    return this;
  }

  /**
   * Stops the sampling for good and resolves once a pass in flight has ended (it stops before its next airline):
   * nothing of it runs on after the worker's connections close. No pass starts after it. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /**
   * One pass (a pass already under way is joined, not doubled). After close(), none: the previous pass's
   * figures.
   */
  sample(): Promise<CoverageFigures[]> {
    if (this.closed) return this.running ?? Promise.resolve([...this.last.values()]);
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<CoverageFigures[]> {
    const now = this.deps.now?.() ?? new Date();
    const to = new Date(now.getTime() + COVERAGE_HORIZON_HOURS * HOUR_MS);
    const airlines = await coverageRepo.airlinesWithLayovers(this.deps.db, now, to);
    const figures: CoverageFigures[] = [];
    for (const airlineId of airlines) {
      // Closing: the airlines left are sampled by the next process; nothing of this pass is reported.
      if (this.closed) return figures;
      try {
        figures.push(await this.airline(airlineId, now, to));
      } catch (err) {
        // One airline's failure costs neither the others' events nor its own (rolled back, new again next
        // pass); its gauges keep the previous pass's figures rather than dropping to nothing.
        this.deps.logger.warn({ err, airline_id: airlineId }, 'coverage sampling of an airline failed');
        const previous = this.last.get(airlineId);
        if (previous) figures.push(previous);
      }
    }
    await coverageRepo.forgetAtRiskExcept(this.deps.db, airlines);
    this.last = new Map(figures.map((f) => [f.airline_id, f]));
    this.deps.report(figures, now.getTime());
    return figures;
  }

  /**
   * One airline's figures; its layovers newly AT_RISK are marked and announced in one transaction, so a key
   * is never marked without its event (an error, or the process dying, undoes both).
   */
  private async airline(airlineId: string, now: Date, to: Date): Promise<CoverageFigures> {
    const alertBy = now.getTime() + UNCOVERED_ALERT_HOURS * HOUR_MS;
    const rows = classifyLayovers(await coverageRepo.layoverCoverage(this.deps.db, airlineId, { from: now, to }));
    const atRisk = rows.filter((r) => r.status === 'AT_RISK');
    const uncovered = rows.filter((r) => r.status === 'UNCOVERED');
    await this.deps.db.transaction().execute(async (trx) => {
      const fresh = await coverageRepo.markAtRisk(trx, airlineId, atRisk);
      const newlyAtRisk = atRisk
        .filter((r) => fresh.has(r.row_key))
        .map((layover) => ({ airline_id: airlineId, layover }));
      if (newlyAtRisk.length && this.deps.onAtRisk) await this.deps.onAtRisk(trx, newlyAtRisk);
    });
    return {
      airline_id: airlineId,
      at_risk: atRisk.length,
      uncovered: uncovered.length,
      uncovered_12h: uncovered.filter((r) => r.at.getTime() < alertBy).length,
    };
  }
}

/** The `coverage.at_risk` webhook event of a layover that just became at risk (contracts WEBHOOK_EVENT_SCHEMAS). */
export function coverageAtRiskEvent(a: AtRiskLayover) {
  const l = a.layover;
  const from = new Date(l.at.getTime() - 60_000).toISOString();
  return {
    airline_id: a.airline_id,
    type: 'coverage.at_risk',
    data: {
      employee_id: l.employee_id,
      pairing_number: l.pairing_number,
      duty_date: l.duty_date,
      duty_period_num: l.duty_period_num,
      traveller_email: l.traveller_email,
      station: l.station,
      checkin_time_local: l.checkin_time_local,
      checkout_time_local: l.checkout_time_local,
      origin: l.origin,
      booking_id: l.booking_id,
      booking_status: l.booking_status,
      status: 'AT_RISK',
      reason: l.reason ?? '',
    },
    links: {
      coverage: `/api/v1/crew/coverage?from=${encodeURIComponent(from)}&hours=1&station=${l.station}`,
      booking: l.booking_id ? `/api/v1/crew/bookings/${l.booking_id}` : null,
    },
    // Check-in within a day: the receiver should act now.
    urgent: true,
  };
}

/** Emits the coverage.at_risk events to the airlines' subscribed webhook endpoints (the outbox of events). */
export async function emitCoverageAtRisk(db: DbOrTrx, layovers: AtRiskLayover[]): Promise<void> {
  await webhookRepo.emitEvents(db, layovers.map(coverageAtRiskEvent));
}
