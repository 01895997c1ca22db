/**
 * The Node.js process's own metrics (prom-client's defaults), registered on a service's registry and released by
 * close().
 *
 * prom-client's collectDefaultMetrics starts two process-wide resources that it never stops: an event-loop delay
 * histogram (a libuv timer every 10 ms) and a GC PerformanceObserver. Each also holds what was reachable where it
 * was made (the observer its registry, the histogram the async context it was created in). A process that builds
 * one registry in its life does not mind; a jest worker builds one per test file, and kept every stack it had ever
 * started: about 20 MB a file, 1.5 GB by the end of a full run, which made the worker too slow to exit ("a worker
 * process has failed to exit gracefully"). Those two are made here with a close(); the others are prom-client's
 * own modules, which read their values at scrape time and hold nothing.
 */
import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
  type PerformanceEntry,
} from 'node:perf_hooks';
import { Gauge, Histogram, type Registry } from 'prom-client';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal';
import processHandles from 'prom-client/lib/metrics/processHandles';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors';
import processRequests from 'prom-client/lib/metrics/processRequests';
import processResources from 'prom-client/lib/metrics/processResources';
import processStartTime from 'prom-client/lib/metrics/processStartTime';
import version from 'prom-client/lib/metrics/version';

const READ_AT_SCRAPE = [
  processCpuTotal,
  processStartTime,
  osMemoryHeap,
  processOpenFileDescriptors,
  processMaxFileDescriptors,
  processResources,
  processHandles,
  processRequests,
  heapSizeAndUsed,
  heapSpacesSizeAndUsed,
  version,
];

/** prom-client's names and buckets, so dashboards read the same series. */
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const LAG_STATISTICS = [
  ['min', 'The minimum recorded event loop delay.', (h: IntervalHistogram) => h.min],
  ['max', 'The maximum recorded event loop delay.', (h: IntervalHistogram) => h.max],
  ['mean', 'The mean of the recorded event loop delays.', (h: IntervalHistogram) => h.mean],
  ['stddev', 'The standard deviation of the recorded event loop delays.', (h: IntervalHistogram) => h.stddev],
  ['p50', 'The 50th percentile of the recorded event loop delays.', (h: IntervalHistogram) => h.percentile(50)],
  ['p90', 'The 90th percentile of the recorded event loop delays.', (h: IntervalHistogram) => h.percentile(90)],
  ['p99', 'The 99th percentile of the recorded event loop delays.', (h: IntervalHistogram) => h.percentile(99)],
] as const;

export class ProcessMetrics {
  private readonly delays = monitorEventLoopDelay({ resolution: 10 });
  private readonly gcObserver: PerformanceObserver;

  constructor(registry: Registry) {
    for (const register of READ_AT_SCRAPE) register(registry, {});
    const registers = [registry];
    const delays = this.delays;
    delays.enable();
    const statistics = LAG_STATISTICS.map(
      ([name, help, read]) =>
        [new Gauge({ name: `nodejs_eventloop_lag_${name}_seconds`, help, registers }), read] as const,
    );
    new Gauge({
      name: 'nodejs_eventloop_lag_seconds',
      help: 'Lag of event loop in seconds.',
      registers,
      // One collect sets every statistic: they describe the same interval, which each scrape then starts afresh.
      async collect() {
        const start = process.hrtime.bigint();
        await new Promise((resolve) => setImmediate(resolve));
        this.set(Number(process.hrtime.bigint() - start) / 1e9);
        for (const [gauge, read] of statistics) gauge.set(read(delays) / 1e9);
        delays.reset();
      },
    });
    const gc = new Histogram({
      name: 'nodejs_gc_duration_seconds',
      help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
      labelNames: ['kind'] as const,
      buckets: [0.001, 0.01, 0.1, 1, 2, 5],
      registers,
    });
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
        const kind = GC_KINDS[detail?.kind ?? -1] ?? 'unknown';
        gc.observe({ kind }, entry.duration / 1000);
      }
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
  }

  /** Stops the event-loop histogram's timer and the GC observer (idempotent). The gauges stay registered. */
  close(): void {
    this.delays.disable();
    this.gcObserver.disconnect();
  }
}
