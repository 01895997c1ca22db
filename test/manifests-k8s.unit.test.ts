/**
 * Each kustomization against the code: each process is given every environment variable it reads
 * (SUPPLIER_URL, the sandbox's address, only where the sandbox runs); secrets come from a Secret; every probe
 * and scrape path is one the process serves; pods may finish their work; resources and autoscaling are set.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CREDENTIAL_VARIABLES,
  filesUnder,
  K8S_DIRS,
  k8sContainers,
  portVariable,
  PROCESSES,
  read,
  ROOT,
  SANDBOX_ONLY_VARIABLES,
  serves,
  URL_WITH_USERINFO,
  variablesReadBy,
} from './manifests';

/** A Kubernetes memory quantity in MiB (Ki, Mi, Gi; k, M, G; plain bytes). */
function mebibytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(quantity);
  if (!m) throw new Error(`memory quantity ${quantity}`);
  const factor = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return (Number(m[1]) * factor) / 2 ** 20;
}

/**
 * The worker threads a process starts: one per startThread call site in its code (RosterIntake and DrainThread
 * each keep one thread). Every thread goes through startThread: nothing else constructs node:worker_threads' Worker.
 */
function threadsOf(process: string): number {
  const constructs = [...filesUnder('services', /\.ts$/), ...filesUnder('packages', /\.ts$/)].filter((f) =>
    /import \{[^}]*(?<!type )\bWorker\b[^}]*\} from 'node:worker_threads'/.test(read(f)),
  );
  expect(constructs).toEqual(['packages/platform/src/threads.ts']);
  return PROCESSES[process]!.files.map((f) => read(f).match(/\bstartThread</g)?.length ?? 0).reduce((a, b) => a + b, 0);
}

describe.each(K8S_DIRS)('kustomization %s', (dir) => {
  const { containers, k, secretRefs } = k8sContainers(dir);

  it('runs api, worker, auth and the migrations (and the sandbox in dev)', () => {
    const processes = new Set(containers.map((c) => c.process));
    expect([...processes].sort()).toEqual(
      dir.endsWith('/dev')
        ? ['api', 'auth', 'migrate', 'supplier-sandbox', 'worker']
        : ['api', 'auth', 'migrate', 'worker'],
    );
  });

  const runsSandbox = containers.some((c) => c.process === 'supplier-sandbox');

  it('gives each container every variable its process reads', () => {
    // SUPPLIER_URL is the sandbox's address: a kustomization without the sandbox has nothing to point it at.
    const expected = (v: string) => runsSandbox || !SANDBOX_ONLY_VARIABLES.includes(v);
    const missing = Object.fromEntries(
      containers.map((c) => [c.where, [...variablesReadBy(c.process)].filter((v) => expected(v) && !c.env.has(v))]),
    );
    expect(missing).toEqual(Object.fromEntries(containers.map((c) => [c.where, []])));
  });

  it('sets SUPPLIER_URL only where the sandbox runs; real suppliers are Duffel at DUFFEL_API_URL, connected per airline', () => {
    const config = k.configMaps.get('crew-travel-config')!;
    for (const v of SANDBOX_ONLY_VARIABLES) expect([dir, v, v in config]).toEqual([dir, v, runsSandbox]);
    expect(config.DUFFEL_API_URL).toBe('https://api.duffel.com');
    // Production (NODE_ENV=production) refuses SANDBOX in a supplier order unless a staging deployment says otherwise.
    if (config.NODE_ENV === 'production') expect(config.SUPPLIER_SANDBOX_ALLOWED).toBe('false');
    expect(read(join(dir, 'kustomization.yaml')) + read('k8s/base/kustomization.yaml')).toMatch(
      /PUT \/ops\/v1\/airlines\/\{airline_id\}\/suppliers/,
    );
  });

  it('takes every credential-bearing variable (passwords in DATABASE_URL, REDIS_URL, SMTP_URL; the keys) from a Secret, never from a ConfigMap', () => {
    // Where the process reads it, it comes from the Secret; no ConfigMap holds it, nor any URL with a password.
    for (const c of containers)
      for (const v of CREDENTIAL_VARIABLES.filter((x) => variablesReadBy(c.process).has(x)))
        expect([c.where, v, c.fromSecret.has(v)]).toEqual([c.where, v, true]);
    for (const [name, data] of k.configMaps) {
      expect([name, Object.keys(data).filter((key) => CREDENTIAL_VARIABLES.includes(key))]).toEqual([name, []]);
      expect([name, Object.entries(data).filter(([, value]) => URL_WITH_USERINFO.test(value.trim()))]).toEqual([
        name,
        [],
      ]);
    }
    expect([...secretRefs.keys()]).toEqual(['crew-travel-secrets']);
    const keys = [...secretRefs.get('crew-travel-secrets')!].sort();
    expect(keys).toEqual(expect.arrayContaining(['DATABASE_URL', 'OPS_TOKEN', 'REDIS_URL', 'SMTP_URL']));
    // Defined here (dev) or created by the operator as docs/operations.md says.
    const defined = k.secrets.get('crew-travel-secrets');
    if (defined) expect(Object.keys(defined).sort()).toEqual(keys);
    else
      for (const key of keys)
        expect(read('docs/operations.md')).toMatch(
          new RegExp(`create secret generic crew-travel-secrets[^\\n]*(\\\\\\n[^\\n]*)*--from-literal=${key}=`),
        );
  });

  it('probes and scrapes paths the process serves, on the port it listens on', () => {
    for (const c of containers.filter((x) => x.process !== 'migrate')) {
      expect([
        c.where,
        c.probes.some((p) => p.kind === 'livenessProbe') && c.probes.some((p) => p.kind === 'readinessProbe'),
      ]).toEqual([c.where, true]);
      const portVar = portVariable(c.process)!;
      const listens = Number(k.configMaps.get('crew-travel-config')![portVar]);
      for (const p of c.probes) {
        expect([c.where, p.kind, p.path, serves(c.process, p.path)]).toEqual([c.where, p.kind, p.path, true]);
        const port = typeof p.port === 'number' ? p.port : c.ports.get(p.port);
        expect([c.where, p.kind, port]).toEqual([c.where, p.kind, listens]);
      }
    }
  });

  it('lets a pod finish its work: grace period longer than SHUTDOWN_DEADLINE_MS', () => {
    const deadlineSeconds = Number(k.configMaps.get('crew-travel-config')!.SHUTDOWN_DEADLINE_MS) / 1000;
    for (const d of k.docs.filter(
      (x) => x.kind === 'Deployment' && String(x.spec.template.spec.containers[0].image).startsWith('crew-travel'),
    )) {
      const preStop = Number(d.spec.template.spec.containers[0].lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      expect([d.metadata.name, d.spec.template.spec.terminationGracePeriodSeconds > deadlineSeconds + preStop]).toEqual(
        [d.metadata.name, true],
      );
    }
  });

  it('sets resources, disruption budgets and autoscaling', () => {
    for (const d of k.docs.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
      for (const c of [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers]) {
        expect([
          d.metadata.name,
          c.name,
          c.resources?.requests?.memory !== undefined && c.resources?.limits?.memory !== undefined,
        ]).toEqual([d.metadata.name, c.name, true]);
      }
    }
    const named = (kind: string) => k.docs.filter((x) => x.kind === kind).map((x) => x.metadata.name);
    expect(named('PodDisruptionBudget')).toEqual(expect.arrayContaining(['api', 'worker', 'auth']));
    expect(k.docs.find((x) => x.kind === 'HorizontalPodAutoscaler')?.spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'api' },
      metrics: [{ resource: { name: 'cpu' } }],
    });
    const job = k.docs.find((x) => x.kind === 'Job');
    expect(job?.spec.template.spec.containers[0].command).toEqual(['node', 'dist/migrate.js']);
    expect(existsSync(join(ROOT, 'scripts/migrate.ts'))).toBe(true);
  });

  it('keeps the migration Job off the generated ConfigMap: a config change must not change the immutable Job', () => {
    // The generated ConfigMap's name carries a hash of its content; in the Job's pod template it would make a
    // config-only change (say BOOKING_CONCURRENCY) an edit of the Job, which `kubectl apply` refuses.
    const jobs = k.docs.filter((x) => x.kind === 'Job');
    expect(jobs.length).toBe(1);
    const refs: string[] = [];
    JSON.stringify(jobs[0]!.spec.template, (key, value: unknown) => {
      if (['configMapRef', 'configMapKeyRef', 'configMap'].includes(key)) refs.push(`${key} ${JSON.stringify(value)}`);
      return value;
    });
    expect(refs).toEqual([]);
  });

  it("fits every V8 heap of a process (main thread and worker threads) in its container's memory limit", () => {
    // --max-old-space-size caps each isolate, the main thread's and every worker thread's alike, and overrides
    // a thread's resourceLimits (Node's documentation; measured on Node 20). Uncapped in total, a thread
    // growing beside a full main heap gets the whole pod OOM-killed instead of failing on its own.
    for (const d of k.docs.filter((x) => x.kind === 'Deployment')) {
      for (const c of d.spec.template.spec.containers as Record<string, any>[]) {
        const env = Object.fromEntries(
          ((c.env ?? []) as { name: string; value?: string }[]).map((e) => [e.name, e.value]),
        );
        const process = env.SERVICE;
        if (!String(c.image).startsWith('crew-travel') || (process !== 'api' && process !== 'worker')) continue;
        const options = String(env.NODE_OPTIONS ?? '');
        const flag = (name: string) => Number(new RegExp(`--${name}=(\\d+)`).exec(options)?.[1] ?? NaN);
        const oldSpace = flag('max-old-space-size');
        expect([d.metadata.name, oldSpace > 0]).toEqual([d.metadata.name, true]);
        // V8's young generation is three semi-spaces (16 MB each by default): heap_size_limit = old + 3 × semi.
        const semi = Number.isNaN(flag('max-semi-space-size')) ? 16 : flag('max-semi-space-size');
        const heaps = (1 + threadsOf(process)) * (oldSpace + 3 * semi);
        const limit = mebibytes(String(c.resources.limits.memory));
        expect([d.metadata.name, heaps, heaps <= limit]).toEqual([d.metadata.name, heaps, true]);
      }
    }
    expect([threadsOf('api'), threadsOf('worker')]).toEqual([1, 1]);
  });

  it('leaves the replica count of an autoscaled Deployment to its autoscaler, and sets it where none scales', () => {
    // `kubectl apply` sets spec.replicas to the manifest's value: a scaled-out fleet would drop to it at every release.
    const scaled = new Set(
      k.docs
        .filter((x) => x.kind === 'HorizontalPodAutoscaler' || x.kind === 'ScaledObject')
        .filter((x) => (x.spec.scaleTargetRef.kind ?? 'Deployment') === 'Deployment')
        .map((x) => x.spec.scaleTargetRef.name as string),
    );
    const deployments = k.docs.filter((x) => x.kind === 'Deployment');
    expect([...scaled].filter((name) => !deployments.some((d) => d.metadata.name === name))).toEqual([]);
    const replicas = Object.fromEntries(deployments.map((d) => [d.metadata.name, d.spec.replicas ?? null]));
    expect(replicas).toEqual(
      Object.fromEntries(
        deployments.map((d) => [d.metadata.name, scaled.has(d.metadata.name) ? null : expect.any(Number)]),
      ),
    );
  });
});
