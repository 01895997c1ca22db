/** The few statistics the benchmarks report: nearest-rank percentiles and the median of a run's samples. */

/** Nearest-rank percentile (p in 0..100) of the values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The median of the finite values (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const v = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}
