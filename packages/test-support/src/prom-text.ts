/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (what /metrics answers): for tests, the
 * screenshots script and ad-hoc checks. Throws on a line Prometheus would reject.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+(-?\\d+))?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

function parseValue(raw: string, line: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  // Prometheus parses NaN case-insensitively, and prom-client writes it "Nan".
  if (raw.toLowerCase() === 'nan') return NaN;
  const n = Number(raw);
  if (raw === '' || Number.isNaN(n)) throw new Error(`bad sample value in: ${line}`);
  return n;
}

function parseLabels(raw: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < raw.length) {
    const start = LABEL.lastIndex;
    const m = LABEL.exec(raw);
    if (!m || m.index !== start) throw new Error(`bad labels in: ${line}`);
    const [, key, value] = m as unknown as [string, string, string];
    if (key in labels) throw new Error(`duplicate label ${key} in: ${line}`);
    labels[key] = value.replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** Families by name; histogram/summary/counter sample suffixes are grouped under their family. */
export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, f);
    }
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      const f = family(name);
      if (kind === 'TYPE') {
        if (f.type !== 'untyped' || f.samples.length) throw new Error(`TYPE of ${name} repeated or after its samples`);
        f.type = rest.trim();
      } else {
        f.help = rest;
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const [, name, rawLabels, rawValue] = m as unknown as [string, string, string | undefined, string];
    const base = SUFFIXES.map((s) => (name.endsWith(s) ? name.slice(0, -s.length) : null)).find(
      (b) => b !== null && families.has(b),
    );
    family(base ?? name).samples.push({
      name,
      labels: rawLabels ? parseLabels(rawLabels, line) : {},
      value: parseValue(rawValue, line),
    });
  }
  return families;
}

/** The sum of the samples called `name` whose labels include `labels`; undefined when none matches. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  let found: number | undefined;
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name !== name || !Object.entries(labels).every(([k, v]) => s.labels[k] === v)) continue;
      found = (found ?? 0) + s.value;
    }
  }
  return found;
}
