/** KEDA, the alerts and the Grafana dashboard only use metrics the processes export. */
import { createRegistry, registerQueueMetrics } from '@crew/queue';
import { PromWorkerMetrics } from '@crew/worker';
import { httpMetrics } from '@crew/api';
import { type Doc, kustomize, read } from './manifests';

describe('KEDA and the Grafana dashboard use exported metrics', () => {
  const exported = (() => {
    const worker = new PromWorkerMetrics();
    registerQueueMetrics(worker.registry, []);
    const api = createRegistry('api');
    httpMetrics(api);
    return new Set([...worker.registry.getMetricsAsArray(), ...api.getMetricsAsArray()].map((m) => m.name));
  })();
  const metricNames = (promql: string) =>
    [...promql.matchAll(/\b((?:crew|process|nodejs)_[a-z0-9_]+)/g)].map((m) =>
      (m[1] as string).replace(/_(bucket|count|sum)$/, ''),
    );

  it('the worker ScaledObject scales on waiting + prioritized jobs of crew_queue_jobs', () => {
    const base = kustomize('k8s/base');
    const scaled = base.docs.find((d) => d.kind === 'ScaledObject');
    expect(scaled?.spec.scaleTargetRef.name).toBe('worker');
    expect(base.docs.some((d) => d.kind === 'Deployment' && d.metadata.name === 'worker')).toBe(true);
    const trigger = scaled!.spec.triggers[0];
    expect(trigger.type).toBe('prometheus');
    expect(trigger.metadata.query).toMatch(/state=~"waiting\|prioritized"/);
    const names = metricNames(trigger.metadata.query);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect([n, exported.has(n)]).toEqual([n, true]);
  });

  it('alerts on the oldest P1 booking task waiting over 60 s, with metrics the worker exports', () => {
    const rules = kustomize('k8s/base').docs.filter((d) => d.kind === 'PrometheusRule');
    const alerts = rules.flatMap((r) => (r.spec.groups as Doc[]).flatMap((g) => g.rules as Doc[]));
    const p1 = alerts.find((a) => a.alert === 'CrewP1BookingTaskWaiting');
    expect(p1?.expr).toMatch(/crew_booking_lane_oldest_seconds\{priority="P1"\}\) > 60/);
    for (const a of alerts)
      for (const n of metricNames(a.expr)) expect([a.alert, n, exported.has(n)]).toEqual([a.alert, n, true]);
  });

  const alerts = () =>
    kustomize('k8s/base')
      .docs.filter((d) => d.kind === 'PrometheusRule')
      .flatMap((r) => (r.spec.groups as Doc[]).flatMap((g) => g.rules as Doc[]));

  it('a "not sampled" alert also fires when no worker reports at all (absent), not only on an old timestamp', () => {
    // time() - max(m) is an empty vector when m has no series, and an empty vector never fires.
    const stale = alerts().flatMap((a) =>
      [...String(a.expr).matchAll(/time\(\)\s*-\s*max(?:\s+by\s*\([^)]*\))?\s*\(\s*([a-z0-9_]+)/g)].map((m) => ({
        alert: a.alert as string,
        metric: m[1] as string,
        absent: new RegExp(`\\babsent\\(\\s*${m[1]}\\s*\\)`).test(a.expr),
      })),
    );
    expect(stale.map((s) => s.metric).sort()).toEqual([
      'crew_booking_lanes_sampled_timestamp_seconds',
      'crew_coverage_sampled_timestamp_seconds',
      'crew_review_queue_sampled_timestamp_seconds',
    ]);
    for (const s of stale) expect(s).toMatchObject({ absent: true });
  });

  it('alerts when no process can count the queues (absent(crew_queue_jobs), what KEDA scales on)', () => {
    const rule = alerts().find((a) => /^\s*absent\(\s*crew_queue_jobs\s*\)\s*$/.test(a.expr));
    expect(rule).toMatchObject({ for: expect.any(String), labels: { severity: expect.any(String) } });
  });

  it('an annotation names only labels its expression keeps (every aggregation keeps them with by)', () => {
    for (const a of alerts()) {
      const text = Object.values((a.annotations ?? {}) as Record<string, string>).join('\n');
      const used = [...text.matchAll(/\$labels\.([a-zA-Z_]+)/g)].map((m) => m[1] as string);
      const aggregations = [
        ...String(a.expr).matchAll(
          /\b(sum|max|min|avg|count|topk|bottomk|quantile)\s*(?:(by|without)\s*\(([^)]*)\))?\s*\(/g,
        ),
      ];
      for (const label of used)
        for (const [agg, , kind, list] of aggregations) {
          const kept = (list ?? '').split(',').map((l) => l.trim());
          const keeps = kind === 'by' ? kept.includes(label) : kind === 'without' && !kept.includes(label);
          expect([a.alert, agg, label, keeps]).toEqual([a.alert, agg, label, true]);
        }
    }
  });

  it('every dashboard query names metrics the api or the worker exports', () => {
    const dashboard = JSON.parse(read('k8s/base/grafana-dashboard.json')) as {
      panels: { type: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const used = new Set(exprs.flatMap(metricNames));
    for (const n of used) expect([n, exported.has(n)]).toEqual([n, true]);
    for (const family of [
      'crew_http_request_duration_seconds',
      'crew_queue_jobs',
      'crew_job_duration_seconds',
      'crew_schedule_processing_seconds',
      'crew_booking_outcomes_total',
      'crew_action_item_disposition_seconds',
      'crew_booking_lane_tasks',
      'crew_booking_lane_oldest_seconds',
      'crew_booking_airline_tasks',
    ]) {
      expect([...used]).toContain(family);
    }
  });
});
