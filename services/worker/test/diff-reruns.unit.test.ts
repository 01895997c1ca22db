import { Writable } from 'node:stream';
import { createLogger } from '@crew/platform';
import { DIFF_RERUNS_WARN_AFTER, rerunWhileBookingsChange } from '../src/schedules/diff-reruns';
import { BookingsChangedMeanwhile } from '../src/schedules/schedule-errors';

/*
 * A diff whose bookings changed after it read them is rolled back and run again, without a bound: every re-run is
 * counted, and once they pass a few for one schedule each further one is a warning, which on-call sees.
 */

/** A logger whose JSON lines the test reads. */
function capturedLogger() {
  const lines: { level: string; msg: string; rerun?: number; bookings?: number }[] = [];
  const out = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { log: createLogger('worker', 'info', out), lines };
}

it('counts every re-run, warns from the re-run past the threshold on, and still runs the diff again until it ends', async () => {
  const { log, lines } = capturedLogger();
  let counted = 0;
  const changes = DIFF_RERUNS_WARN_AFTER + 2;
  let attempts = 0;
  let readAgain = 0;
  const result = await rerunWhileBookingsChange(
    async () => {
      if (++attempts <= changes) throw new BookingsChangedMeanwhile(attempts);
      return 'written';
    },
    async () => void readAgain++,
    log,
    { scheduleDiffRerun: () => void counted++ },
  );
  expect(result).toBe('written');
  expect(attempts).toBe(changes + 1);
  expect(readAgain).toBe(changes);
  expect(counted).toBe(changes);
  const reruns = lines.filter((l) => l.rerun !== undefined).map((l) => [l.rerun, l.level, l.bookings]);
  expect(reruns).toEqual(
    Array.from({ length: changes }, (_, i) => [i + 1, i + 1 > DIFF_RERUNS_WARN_AFTER ? 'warn' : 'info', i + 1]),
  );
  expect(DIFF_RERUNS_WARN_AFTER).toBeLessThanOrEqual(5);
});

it('a diff that ends at once is neither counted nor logged; any other error is thrown as it is, uncounted', async () => {
  const { log, lines } = capturedLogger();
  let counted = 0;
  const metrics = { scheduleDiffRerun: () => void counted++ };
  expect(
    await rerunWhileBookingsChange(
      async () => 1,
      async () => undefined,
      log,
      metrics,
    ),
  ).toBe(1);
  const boom = new Error('connection lost');
  await expect(
    rerunWhileBookingsChange(
      async () => {
        throw boom;
      },
      async () => undefined,
      log,
      metrics,
    ),
  ).rejects.toBe(boom);
  expect(counted).toBe(0);
  expect(lines).toEqual([]);
});
