/** A value `waitFor` keeps waiting on. */
type Falsy = undefined | null | false | 0 | '';

/**
 * The one poll loop of the tests: calls `probe` until it returns a truthy value and returns that value;
 * once `timeoutMs` has passed it throws, naming `what` (a function is read then, to report the last state).
 * Probes every `intervalMs`. A probe that throws ends the wait with its error (add `.catch` in the probe
 * where an error means "not yet"). Tests wait on the condition a sleep would stand for, never on time alone.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 30_000,
  what: string | (() => string) = 'a condition',
  intervalMs = 50,
): Promise<Exclude<T, Falsy>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, Falsy>;
    if (Date.now() > end)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
