/**
 * Prometheus pieces both processes expose: a per-process registry with the
 * Node.js defaults, and BullMQ queue depths read at scrape time. Kept free of worker-only imports.
 */
import type { Queue } from 'bullmq';
import { Gauge, Registry } from 'prom-client';
import { withDeadline } from './deadline';

/** The states `crew_queue_jobs` reports. waiting + prioritized is the runnable backlog (what KEDA scales on). */
export const QUEUE_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

/**
 * A registry of its own (not prom-client's global one), so tests can build several processes side by side. The
 * process's own metrics are added by whoever owns the process (ProcessMetrics), who also stops them.
 */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  return registry;
}

/**
 * `crew_queue_jobs{queue,state}`, counted in Redis when Prometheus scrapes (one round trip per queue).
 * A queue whose counts cannot be read (Redis down or slow) has no series in that scrape rather than a
 * stale value; `absent(crew_queue_jobs)` alerts (k8s/base/alerts.yaml, CrewQueueCountsMissing).
 *
 * BullMQ 6 also has `Queue.exportPrometheusMetrics()`, but it writes HELP/TYPE lines per queue (invalid
 * once two queues are concatenated) and its completed/failed totals need the Worker `metrics` option.
 */
export function registerQueueMetrics(registry: Registry, queues: readonly Queue[], timeoutMs = 2000): void {
  new Gauge({
    name: 'crew_queue_jobs',
    help: 'BullMQ jobs per queue and state, counted at scrape time (waiting + prioritized = runnable backlog)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const counts = await Promise.all(
        queues.map((q) => withDeadline(q.getJobCounts(...QUEUE_STATES), timeoutMs).catch(() => null)),
      );
      this.reset();
      queues.forEach((q, i) => {
        const c = counts[i];
        if (c) for (const state of QUEUE_STATES) this.set({ queue: q.name, state }, c[state] ?? 0);
      });
    },
  });
}
