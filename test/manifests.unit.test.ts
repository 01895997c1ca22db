/**
 * Deployment manifests against the code: every YAML under k8s/ and docker-compose.yml parses; each process
 * is given every environment variable it reads (SUPPLIER_URL, the sandbox's address, only where the sandbox
 * runs); every probe and scrape path is one the process serves;
 * KEDA and the Grafana dashboard only use metrics the processes export. No cluster or kustomize binary
 * needed: kustomizations are resolved here (resources, configMap/secret generators; patches never touch env).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { createRegistry, registerQueueMetrics } from '@crew/queue';
import { PromWorkerMetrics } from '@crew/worker';
import { httpMetrics } from '@crew/api';
import { configFieldOf, ENV_VARIABLES, REQUIRED_IN_PRODUCTION } from '@crew/platform';
import { builtFiles } from '../scripts/build-targets';

const ROOT = resolve(__dirname, '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
// Parsed YAML: its shape is what the assertions below check.
type Doc = Record<string, any>;

function filesUnder(dir: string, ext: RegExp): string[] {
  const abs = join(ROOT, dir);
  return readdirSync(abs).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(join(ROOT, p)).isDirectory())
      return name === 'node_modules' || name === 'test' ? [] : filesUnder(p, ext);
    return ext.test(name) ? [p] : [];
  });
}

// ---- What the code reads ------------------------------------------------------------------------------

/** Every variable loadConfig reads, with the Config field it fills: the keys of the one schema, EnvSchema. */
function configVariables(): Map<string, string> {
  return new Map(ENV_VARIABLES.map((name) => [name, configFieldOf(name)]));
}

/** Where each process's code lives; `migrate` is the Job / compose service running dist/migrate.js (built from scripts/migrate.ts). */
const PROCESSES: Record<string, { files: string[]; entry: string }> = {
  api: { files: filesUnder('services/api/src', /\.ts$/), entry: 'services/api/src/main.ts' },
  worker: { files: filesUnder('services/worker/src', /\.ts$/), entry: 'services/worker/src/main.ts' },
  auth: { files: filesUnder('services/auth/src', /\.ts$/), entry: 'services/auth/src/main.ts' },
  'supplier-sandbox': {
    files: filesUnder('services/supplier-sandbox/src', /\.ts$/),
    entry: 'services/supplier-sandbox/src/main.ts',
  },
  migrate: { files: ['scripts/migrate.ts'], entry: 'scripts/migrate.ts' },
};

/**
 * The variables a process reads: those whose Config field its code uses, plus the ones loadConfig itself
 * insists on ("OPS_TOKEN is required when NODE_ENV=production") unless the entry point supplies a fallback.
 */
function variablesReadBy(process: string): Set<string> {
  const { files, entry } = PROCESSES[process]!;
  const code = files.map(read).join('\n');
  const vars = new Set<string>();
  for (const [name, field] of configVariables()) if (new RegExp(`\\.${field}\\b`).test(code)) vars.add(name);
  for (const name of REQUIRED_IN_PRODUCTION) {
    vars.add('NODE_ENV');
    if (!new RegExp(`${name}: process\\.env\\.${name} \\|\\|`).test(read(entry))) vars.add(name);
  }
  return vars;
}

/** The *_PORT variable a process listens on (the one of its variables ending in _PORT). */
function portVariable(process: string): string | undefined {
  const ports = [...variablesReadBy(process)].filter((v) => v.endsWith('_PORT'));
  expect([process, ports.length <= 1]).toEqual([process, true]);
  return ports[0];
}

/** A probe or scrape path is served when the process's code registers that literal path. */
function serves(process: string, path: string): boolean {
  const literal = new RegExp(`['"\`]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`);
  return PROCESSES[process]!.files.some((f) => literal.test(read(f)));
}

// ---- What the manifests provide -----------------------------------------------------------------------

interface Container {
  where: string;
  process: string;
  env: Set<string>;
  ports: Map<string, number>;
  probes: { kind: string; path: string; port: string | number }[];
}

/** Our containers run the one image; SERVICE picks the process, or the command runs the migrations. */
function processOf(container: Doc, env: Record<string, string>): string | null {
  const command = [container.command, container.args].flat().filter(Boolean).join(' ');
  if (command.includes('dist/migrate.js')) return 'migrate';
  return env.SERVICE ?? null;
}

interface Kustomized {
  docs: Doc[];
  configMaps: Map<string, Record<string, string>>;
  secrets: Map<string, Record<string, string>>;
}

function literals(list: string[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** resources (files and directories), configMapGenerator (literals, merge) and secretGenerator. */
function kustomize(dir: string): Kustomized {
  const k = parse(read(join(dir, 'kustomization.yaml'))) as Doc;
  const out: Kustomized = { docs: [], configMaps: new Map(), secrets: new Map() };
  for (const r of (k.resources ?? []) as string[]) {
    const p = join(dir, r);
    if (existsSync(join(ROOT, p, 'kustomization.yaml'))) {
      const sub = kustomize(p);
      out.docs.push(...sub.docs);
      sub.configMaps.forEach((v, n) => out.configMaps.set(n, v));
      sub.secrets.forEach((v, n) => out.secrets.set(n, v));
    } else {
      out.docs.push(...parseAllDocuments(read(p)).map((d) => d.toJS() as Doc));
    }
  }
  for (const d of out.docs) {
    if (d.kind === 'ConfigMap') out.configMaps.set(d.metadata.name, d.data ?? {});
    if (d.kind === 'Secret') out.secrets.set(d.metadata.name, { ...d.data, ...d.stringData });
  }
  for (const g of (k.configMapGenerator ?? []) as Doc[]) {
    const base = g.behavior === 'merge' ? (out.configMaps.get(g.name) ?? {}) : {};
    if (g.behavior === 'merge') expect([dir, g.name, out.configMaps.has(g.name)]).toEqual([dir, g.name, true]);
    out.configMaps.set(g.name, { ...base, ...literals(g.literals) });
  }
  for (const g of (k.secretGenerator ?? []) as Doc[]) out.secrets.set(g.name, literals(g.literals));
  return out;
}

function k8sContainers(dir: string): { containers: Container[]; k: Kustomized; secretRefs: Map<string, Set<string>> } {
  const k = kustomize(dir);
  const containers: Container[] = [];
  const secretRefs = new Map<string, Set<string>>();
  for (const d of k.docs) {
    const pod = d.kind === 'Deployment' || d.kind === 'Job' ? d.spec.template.spec : null;
    if (!pod) continue;
    for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Doc[]) {
      if (!String(c.image).startsWith('crew-travel')) continue;
      const env = new Set<string>();
      const values: Record<string, string> = {};
      for (const e of (c.env ?? []) as Doc[]) {
        env.add(e.name);
        if (e.value !== undefined) values[e.name] = String(e.value);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) {
          if (!secretRefs.has(ref.name)) secretRefs.set(ref.name, new Set());
          secretRefs.get(ref.name)!.add(ref.key);
        }
      }
      for (const from of (c.envFrom ?? []) as Doc[]) {
        const cm = from.configMapRef && k.configMaps.get(from.configMapRef.name);
        if (from.configMapRef)
          expect([dir, c.name, from.configMapRef.name, cm !== undefined]).toEqual([
            dir,
            c.name,
            from.configMapRef.name,
            true,
          ]);
        for (const key of Object.keys(cm ?? {})) env.add(key);
        for (const key of Object.keys((from.secretRef && k.secrets.get(from.secretRef.name)) ?? {})) env.add(key);
      }
      const process = processOf(c, values);
      expect([dir, d.metadata.name, c.name, process !== null && process in PROCESSES]).toEqual([
        dir,
        d.metadata.name,
        c.name,
        true,
      ]);
      const probes = ['livenessProbe', 'readinessProbe', 'startupProbe']
        .filter((p) => c[p])
        .map((p) => ({ kind: p, path: c[p].httpGet?.path, port: c[p].httpGet?.port }));
      const annotations = d.spec.template.metadata?.annotations ?? {};
      if (annotations['prometheus.io/path'])
        probes.push({
          kind: 'prometheus scrape',
          path: annotations['prometheus.io/path'],
          port: Number(annotations['prometheus.io/port']),
        });
      const ports = new Map<string, number>(((c.ports ?? []) as Doc[]).map((p) => [p.name, p.containerPort]));
      containers.push({
        where: `${dir} ${d.kind}/${d.metadata.name} ${c.name}`,
        process: process!,
        env,
        ports,
        probes,
      });
    }
  }
  return { containers, k, secretRefs };
}

/** Variables that only mean something where the supplier sandbox runs (its address). */
const SANDBOX_ONLY_VARIABLES = ['SUPPLIER_URL'];

const K8S_DIRS = ['k8s/base', ...readdirSync(join(ROOT, 'k8s/overlays')).map((o) => `k8s/overlays/${o}`)];

// ---- Tests --------------------------------------------------------------------------------------------

describe('every manifest parses', () => {
  it.each([...filesUnder('k8s', /\.ya?ml$/), 'docker-compose.yml'])('%s', (file) => {
    const docs = parseAllDocuments(read(file), { merge: true });
    expect(docs.flatMap((d) => d.errors.map((e) => e.message))).toEqual([]);
    expect(docs.length).toBeGreaterThan(0);
  });

  it('the variables come from EnvSchema, and the processes read them', () => {
    const vars = configVariables();
    expect([...vars.keys()]).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'QUEUE_PREFIX',
        'AUTH_URL',
        'SUPPLIER_URL',
        'OPS_TOKEN',
        'LOG_LEVEL',
        'AUTO_RETRY_DELAYS',
        'NODE_ENV',
        'SHUTDOWN_DEADLINE_MS',
      ]),
    );
    expect([...variablesReadBy('worker')]).toEqual(
      expect.arrayContaining([
        'REDIS_URL',
        'QUEUE_PREFIX',
        'DATABASE_URL',
        'SUPPLIER_URL',
        'WORKER_PORT',
        'OPS_TOKEN',
        'NODE_ENV',
        'BOOKING_CONCURRENCY',
        'SUPPLIER_RATE_LIMIT_PER_SECOND',
      ]),
    );
    expect([...variablesReadBy('migrate')]).toEqual(expect.arrayContaining(['DATABASE_URL']));
    expect(variablesReadBy('migrate').has('OPS_TOKEN')).toBe(false);
    expect(portVariable('api')).toBe('API_PORT');
  });
});

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

  it('takes DATABASE_URL, OPS_TOKEN, WEBHOOK_SECRET_KEY and SUPPLIER_CREDENTIALS_KEY from a Secret, never from the ConfigMap', () => {
    for (const data of k.configMaps.values())
      for (const secret of ['DATABASE_URL', 'OPS_TOKEN', 'SUPPLIER_CREDENTIALS_KEY', 'WEBHOOK_SECRET_KEY'])
        expect(Object.keys(data)).not.toContain(secret);
    expect([...secretRefs.keys()]).toEqual(['crew-travel-secrets']);
    const keys = [...secretRefs.get('crew-travel-secrets')!].sort();
    expect(keys).toEqual(['DATABASE_URL', 'OPS_TOKEN', 'SUPPLIER_CREDENTIALS_KEY', 'WEBHOOK_SECRET_KEY']);
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
});

describe('every command runs a file `npm run build` produces, with plain node', () => {
  const built = new Set(builtFiles());
  /** The file a `node …` command runs, or why the command is not one. */
  const nodeFile = (command: string[]): string => {
    if (command[0] !== 'node') return `not node: ${command.join(' ')}`;
    if (command.some((a) => a.includes('tsx'))) return `tsx at runtime: ${command.join(' ')}`;
    return command.slice(1).find((a) => !a.startsWith('-')) ?? `no file: ${command.join(' ')}`;
  };
  const dockerCmd = (() => {
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(read('Dockerfile'))![1]!) as string[];
    expect(cmd.slice(0, 2)).toEqual(['sh', '-c']);
    return (service: string) =>
      cmd[2]!
        .replace(/^exec /, '')
        .replace('${SERVICE}', service)
        .split(/\s+/);
  })();
  /** A container's command, or the image's CMD for its SERVICE. */
  const commandOf = (command: string[] | undefined, env: Record<string, string>, name: string) =>
    command ? [...command] : dockerCmd(env.SERVICE ?? name);

  it('the image runs services/<SERVICE>/dist/main.js for every service', () => {
    for (const service of ['api', 'worker', 'auth', 'supplier-sandbox'])
      expect([service, nodeFile(dockerCmd(service))]).toEqual([service, `services/${service}/dist/main.js`]);
    for (const f of ['api', 'worker', 'auth', 'supplier-sandbox'].map((s) => `services/${s}/dist/main.js`))
      expect([f, built.has(f)]).toEqual([f, true]);
  });

  it.each(K8S_DIRS)('%s', (dir) => {
    for (const d of kustomize(dir).docs.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
      const pod = d.spec.template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Doc[]) {
        if (!String(c.image).startsWith('crew-travel')) continue;
        const env = Object.fromEntries(
          ((c.env ?? []) as Doc[]).filter((e) => e.value !== undefined).map((e) => [e.name, String(e.value)]),
        );
        const file = nodeFile(commandOf(c.command && [...c.command, ...(c.args ?? [])], env, c.name));
        expect([d.metadata.name, c.name, file, built.has(file)]).toEqual([d.metadata.name, c.name, file, true]);
      }
    }
  });

  it('docker-compose.yml', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Doc> };
    for (const [name, s] of Object.entries(compose.services).filter(
      ([, x]) => x.build !== undefined || String(x.image).startsWith('crew-travel'),
    )) {
      const file = nodeFile(commandOf(s.command, s.environment ?? {}, name));
      expect([name, file, built.has(file)]).toEqual([name, file, true]);
    }
  });
});

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

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Doc> };
  const ours = Object.entries(compose.services).filter(
    ([, s]) => s.build !== undefined || String(s.image).startsWith('crew-travel'),
  );
  const envOf = (s: Doc): Record<string, string> =>
    Array.isArray(s.environment)
      ? Object.fromEntries((s.environment as string[]).map((l) => [l.split('=')[0], l.slice(l.indexOf('=') + 1)]))
      : (s.environment ?? {});
  const processOfService = (name: string, s: Doc) => processOf(s, envOf(s)) ?? name;

  it('runs every process', () => {
    expect(ours.map(([name, s]) => processOfService(name, s)).sort()).toEqual([
      'api',
      'auth',
      'migrate',
      'supplier-sandbox',
      'worker',
    ]);
  });

  it('gives each service every variable its process reads', () => {
    const missing = Object.fromEntries(
      ours.map(([name, s]) => [
        name,
        [...variablesReadBy(processOfService(name, s))].filter((v) => envOf(s)[v] === undefined),
      ]),
    );
    expect(missing).toEqual(Object.fromEntries(ours.map(([name]) => [name, []])));
  });

  it('health checks a path the process serves, on the port it listens on', () => {
    for (const [name, s] of ours) {
      const process = processOfService(name, s);
      if (process === 'migrate') continue;
      const check = [s.healthcheck?.test].flat().join(' ');
      const url = /https?:\/\/[^/'"\s]+:(\d+)(\/[^'"\s)]*)/.exec(check);
      expect([name, url !== null]).toEqual([name, true]);
      expect([name, url![2], serves(process, url![2]!)]).toEqual([name, url![2], true]);
      expect([name, url![1]]).toEqual([name, envOf(s)[portVariable(process)!]]);
    }
  });
});

it('lists the k8s files it checked', () => {
  // Guards the walk itself: a renamed folder must not silently check nothing.
  expect(
    filesUnder('k8s', /\.ya?ml$/)
      .map((f) => relative('k8s', f))
      .sort(),
  ).toEqual(
    expect.arrayContaining([
      'base/api.yaml',
      'base/auth.yaml',
      'base/kustomization.yaml',
      'base/migrate-job.yaml',
      'base/worker.yaml',
      'overlays/dev/kustomization.yaml',
      'overlays/dev/supplier-sandbox.yaml',
      'overlays/example/kustomization.yaml',
    ]),
  );
  expect(dirname('k8s/base/api.yaml')).toBe('k8s/base');
});
