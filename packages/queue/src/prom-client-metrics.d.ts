/**
 * prom-client's default metrics, one module each (prom-client 15 ships them as `lib/metrics/<name>.js`, typed
 * only through collectDefaultMetrics): each registers its gauges on a registry and reads its values at scrape
 * time. process-metrics.ts uses those that hold nothing between scrapes.
 */
declare module 'prom-client/lib/metrics/*' {
  import type { Registry } from 'prom-client';
  const register: (registry: Registry, config: Record<string, never>) => void;
  export = register;
}
