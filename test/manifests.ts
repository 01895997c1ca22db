/**
 * What the manifest tests (test/manifests*.unit.test.ts) share: what the code reads (each process's variables,
 * ports and served paths) and what the manifests provide (kustomizations resolved here, their containers).
 * No cluster or kustomize binary needed: kustomizations are resolved here (resources, configMap/secret
 * generators, and the patches our overlays use: JSON 6902 operations and `$patch: delete`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { configFieldOf, ENV_VARIABLES, EnvSchema, REQUIRED_IN_PRODUCTION } from '@crew/platform';

export const ROOT = resolve(__dirname, '..');
export const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
// Parsed YAML: its shape is what the assertions below check.
export type Doc = Record<string, any>;

export function filesUnder(dir: string, ext: RegExp): string[] {
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
export function configVariables(): Map<string, string> {
  return new Map(ENV_VARIABLES.map((name) => [name, configFieldOf(name)]));
}

/** Where each process's code lives; `migrate` is the Job / compose service running dist/migrate.js (built from scripts/migrate.ts). */
export const PROCESSES: Record<string, { files: string[]; entry: string }> = {
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
 * insists on ("OPS_TOKEN is required when NODE_ENV=production") unless the entry point supplies a fallback;
 * NODE_ENV with them (loadConfig reads it only for those, so with every fallback supplied it changes nothing).
 */
export function variablesReadBy(process: string): Set<string> {
  const { files, entry } = PROCESSES[process]!;
  const code = files.map(read).join('\n');
  const vars = new Set<string>();
  for (const [name, field] of configVariables()) if (new RegExp(`\\.${field}\\b`).test(code)) vars.add(name);
  for (const name of REQUIRED_IN_PRODUCTION) {
    if (new RegExp(`${name}: process\\.env\\.${name} \\|\\|`).test(read(entry))) continue;
    vars.add(name);
    vars.add('NODE_ENV');
  }
  return vars;
}

/** The *_PORT variable a process listens on (the one of its variables ending in _PORT). */
export function portVariable(process: string): string | undefined {
  const ports = [...variablesReadBy(process)].filter((v) => v.endsWith('_PORT'));
  expect([process, ports.length <= 1]).toEqual([process, true]);
  return ports[0];
}

/** A probe or scrape path is served when the process's code registers that literal path. */
export function serves(process: string, path: string): boolean {
  const literal = new RegExp(`['"\`]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`);
  return PROCESSES[process]!.files.some((f) => literal.test(read(f)));
}

// ---- What the manifests provide -----------------------------------------------------------------------

export interface Container {
  where: string;
  process: string;
  env: Set<string>;
  /** The variables it takes from a Secret (secretKeyRef or envFrom secretRef). */
  fromSecret: Set<string>;
  ports: Map<string, number>;
  probes: { kind: string; path: string; port: string | number }[];
}

/** Our containers run the one image; SERVICE picks the process, or the command runs the migrations. */
export function processOf(container: Doc, env: Record<string, string>): string | null {
  const command = [container.command, container.args].flat().filter(Boolean).join(' ');
  if (command.includes('dist/migrate.js')) return 'migrate';
  return env.SERVICE ?? null;
}

export interface Kustomized {
  docs: Doc[];
  configMaps: Map<string, Record<string, string>>;
  secrets: Map<string, Record<string, string>>;
}

export function literals(list: string[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** resources (files and directories), configMapGenerator (literals, merge) and secretGenerator. */
export function kustomize(dir: string): Kustomized {
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
  for (const p of (k.patches ?? []) as Doc[]) applyPatch(dir, out, p);
  return out;
}

/** kustomize matches a target's kind and name as whole-string regular expressions. */
const matches = (pattern: string | undefined, value: string) =>
  pattern === undefined || new RegExp(`^(?:${pattern})$`).test(value);

/** A JSON pointer's parent and last key; fails (as kustomize does) when the parent is missing. */
function pointer(doc: Doc, path: string): { parent: Doc; key: string } {
  const keys = path
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent: Doc = doc;
  for (const k of keys.slice(0, -1)) {
    if (parent?.[k] === undefined) throw new Error(`patch path ${path}: no ${k}`);
    parent = parent[k];
  }
  return { parent, key: keys[keys.length - 1]! };
}

/**
 * One entry of `patches` (inline `patch` or a `path`): a list of JSON 6902 operations (add, replace, remove,
 * test) applied to every document its target selects, or a strategic-merge document `$patch: delete`. Anything
 * else throws, so a new kind of patch is taught here rather than silently skipped.
 */
function applyPatch(dir: string, out: Kustomized, entry: Doc): void {
  const body = parse(entry.patch ?? read(join(dir, entry.path))) as Doc | Doc[];
  if (!Array.isArray(body)) {
    if (body.$patch !== 'delete') throw new Error(`${dir}: only $patch: delete is resolved here`);
    const before = out.docs.length;
    out.docs = out.docs.filter((d) => !(d.kind === body.kind && d.metadata?.name === body.metadata?.name));
    if (out.docs.length === before) throw new Error(`${dir}: $patch: delete of a missing ${body.kind}`);
    return;
  }
  const t = (entry.target ?? {}) as Doc;
  const targets = out.docs.filter((d) => matches(t.kind, d.kind) && matches(t.name, d.metadata?.name ?? ''));
  if (targets.length === 0) throw new Error(`${dir}: patch target ${JSON.stringify(t)} selects nothing`);
  for (const doc of targets)
    for (const op of body) {
      const { parent, key } = pointer(doc, op.path);
      const isList = Array.isArray(parent);
      const index = isList ? (key === '-' ? parent.length : Number(key)) : -1;
      const exists = isList ? index < parent.length : key in parent;
      if (op.op !== 'add' && !exists)
        throw new Error(`${dir} ${doc.kind}/${doc.metadata.name}: ${op.op} ${op.path}: no such path`);
      if (op.op === 'test') {
        expect([op.path, parent[key]]).toEqual([op.path, op.value]);
      } else if (op.op === 'remove') {
        if (isList) parent.splice(index, 1);
        else delete parent[key];
      } else if (op.op === 'add' && isList) {
        parent.splice(index, 0, op.value);
      } else if (op.op === 'add' || op.op === 'replace') {
        parent[key] = op.value;
      } else {
        throw new Error(`${dir}: patch op ${op.op} is not resolved here`);
      }
    }
}

export function k8sContainers(dir: string): {
  containers: Container[];
  k: Kustomized;
  secretRefs: Map<string, Set<string>>;
} {
  const k = kustomize(dir);
  const containers: Container[] = [];
  const secretRefs = new Map<string, Set<string>>();
  for (const d of k.docs) {
    const pod = d.kind === 'Deployment' || d.kind === 'Job' ? d.spec.template.spec : null;
    if (!pod) continue;
    for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Doc[]) {
      if (!String(c.image).startsWith('crew-travel')) continue;
      const env = new Set<string>();
      const fromSecret = new Set<string>();
      const values: Record<string, string> = {};
      for (const e of (c.env ?? []) as Doc[]) {
        env.add(e.name);
        if (e.value !== undefined) values[e.name] = String(e.value);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) {
          fromSecret.add(e.name);
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
        for (const key of Object.keys((from.secretRef && k.secrets.get(from.secretRef.name)) ?? {})) {
          env.add(key);
          fromSecret.add(key);
        }
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
        fromSecret,
        ports,
        probes,
      });
    }
  }
  return { containers, k, secretRefs };
}

/**
 * The variables that carry a credential: those EnvSchema marks secret (never echoed in errors) and the URLs of
 * Postgres, Redis and the SMTP relay, whose password is written in the URL. A manifest takes them from a Secret.
 */
export const CREDENTIAL_VARIABLES = [
  ...ENV_VARIABLES.filter((name) => (EnvSchema.properties[name] as { secret?: boolean }).secret === true),
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
];

/** A URL with userinfo (`scheme://user:password@host`): a credential, whatever the variable's name. */
export const URL_WITH_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;

/** Variables that only mean something where the supplier sandbox runs (its address). */
export const SANDBOX_ONLY_VARIABLES = ['SUPPLIER_URL'];

export const K8S_DIRS = ['k8s/base', ...readdirSync(join(ROOT, 'k8s/overlays')).map((o) => `k8s/overlays/${o}`)];
