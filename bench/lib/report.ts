/** Formatting of the benchmark's figures, and the docs/benchmarks.md block of one run. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const ms = (v: number): string => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'n/a');
export const sec = (v: number): string => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : 'n/a');
export const ratio = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
export const int = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
export const mib = (kb: number | null): string => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(0)} MiB`);

/** A markdown table from a header and rows (cells are escaped for pipes). */
export function table(header: string[], rows: string[][]): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `| ${header.map(esc).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/** A plain-text table for stdout. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const INTRO = `# Benchmarks

Figures in this file are written by the benchmark itself from one run on the machine named in each
section; nothing here is estimated. Re-running a size replaces that size's section.
`;

const marker = (key: string, edge: 'start' | 'end') => `<!-- bench:roster ${key} ${edge} -->`;

/**
 * Replaces the block between `<!-- bench:roster <key> start -->` and `<!-- bench:roster <key> end -->` in
 * docs/benchmarks.md, or adds it: right after the end of block `after` where that block exists, else at the end.
 * Everything else in the file is left as it is.
 */
export function writeDocsBlock(file: string, key: string, content: string, after?: string): void {
  const start = marker(key, 'start');
  const end = marker(key, 'end');
  const block = `${start}\n${content.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : INTRO;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  const afterEnd = after ? marker(after, 'end') : null;
  const k = afterEnd ? text.indexOf(afterEnd) : -1;
  if (i >= 0 && j > i) text = text.slice(0, i) + block + text.slice(j + end.length);
  else if (k >= 0) text = `${text.slice(0, k + afterEnd!.length)}\n\n${block}${text.slice(k + afterEnd!.length)}`;
  else text = `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
