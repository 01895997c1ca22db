/**
 * The process's own metrics let go of what they were built with once closed. prom-client's collectDefaultMetrics
 * never did: its event-loop histogram held the async context it was made in, its GC observer its registry, so a
 * jest worker kept every stack of every test file it ran (1.5 GB by the end of a run) and could not exit in time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRegistry, ProcessMetrics } from '../src';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Lets finalizers and weak references settle: a few collections with a turn of the event loop between them. */
async function collect(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

it("serves prom-client's default series, the dashboards' ones among them", async () => {
  const registry = createRegistry('test');
  const metrics = new ProcessMetrics(registry);
  try {
    gc(); // one GC entry for the histogram
    await new Promise((resolve) => setTimeout(resolve, 30));
    const text = await registry.metrics();
    for (const name of [
      'process_cpu_seconds_total',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
      'nodejs_version_info',
    ])
      expect([name, text]).toEqual([name, expect.stringContaining(`# TYPE ${name} `)]);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_count\{service="test",kind="major"\} [1-9]/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{service="test"\} \d/m);
  } finally {
    metrics.close();
  }
});

it('once closed, keeps nothing it was built with: not its registry, not the async context it was made in', async () => {
  const context = new AsyncLocalStorage<{ held: object }>();
  const built: { context: WeakRef<object>; registry: WeakRef<object> }[] = [];
  for (let i = 0; i < 3; i++)
    await context.run({ held: { stack: Buffer.alloc(1024) } }, async () => {
      // As a test file's stack is built inside a jest hook: in an async context of the test runner's.
      const registry = createRegistry('test');
      const metrics = new ProcessMetrics(registry);
      await registry.metrics();
      built.push({ context: new WeakRef(context.getStore()!.held), registry: new WeakRef(registry) });
      metrics.close();
    });
  await collect();
  expect(built.map((b) => [b.context.deref(), b.registry.deref()])).toEqual(built.map(() => [undefined, undefined]));
});

it('close() twice is harmless', () => {
  const metrics = new ProcessMetrics(createRegistry('test'));
  metrics.close();
  expect(() => metrics.close()).not.toThrow();
});
