/**
 * What an api process takes on trust for a while (an airline seen to exist, a token that verified): entries that
 * expire at a time of their own, at most `max` of them; when full, the oldest is dropped (Maps keep insertion order).
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  /** The value, while its time has not come; an expired entry is forgotten. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Remembers the value until `until` (the clock's milliseconds). */
  set(key: K, value: V, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }
}
