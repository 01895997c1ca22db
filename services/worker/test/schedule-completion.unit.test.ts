import { createLogger } from '@crew/platform';
import { ScheduleCompletion } from '../src/schedules/schedule-completion';

/*
 * A schedule's completion is checked once per delay however many of its items settle meanwhile; a check never
 * starts before a settle it answers; a settle during a check gets one more; close() makes the checks still due.
 */

const DELAY = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Checks that end when the test says so, recorded with what had settled when each started. */
function harness() {
  const checks: { scheduleId: string; settledBefore: number; end: (err?: Error) => void }[] = [];
  let settles = 0;
  const completion = new ScheduleCompletion({
    delayMs: DELAY,
    logger: createLogger('worker', 'silent'),
    check: (scheduleId) =>
      new Promise<void>((resolve, reject) => {
        checks.push({ scheduleId, settledBefore: settles, end: (err) => (err ? reject(err) : resolve()) });
      }),
  });
  const settled = (scheduleId: string) => {
    settles++;
    completion.settled(scheduleId);
  };
  return { completion, checks, settled };
}

it('many settles of one schedule within the delay make one check, after the last of them', async () => {
  const { completion, checks, settled } = harness();
  for (let i = 0; i < 50; i++) settled('S1');
  expect(checks).toHaveLength(0);
  await sleep(DELAY + 30);
  expect(checks.map((c) => [c.scheduleId, c.settledBefore])).toEqual([['S1', 50]]);
  checks[0]!.end();
  await sleep(DELAY + 30);
  expect(checks).toHaveLength(1);
  await completion.close();
});

it('each schedule gets its own check', async () => {
  const { completion, checks, settled } = harness();
  settled('S1');
  settled('S2');
  settled('S1');
  await sleep(DELAY + 30);
  expect(checks.map((c) => c.scheduleId).sort()).toEqual(['S1', 'S2']);
  for (const c of checks) c.end();
  await completion.close();
});

it('a settle while its schedule’s check runs gets one more check, started after that check ended', async () => {
  const { completion, checks, settled } = harness();
  settled('S1');
  await sleep(DELAY + 30);
  expect(checks).toHaveLength(1);
  settled('S1');
  settled('S1');
  await sleep(DELAY + 30);
  // Never two checks of one schedule at once.
  expect(checks).toHaveLength(1);
  checks[0]!.end();
  await sleep(DELAY + 30);
  expect(checks.map((c) => c.settledBefore)).toEqual([1, 3]);
  checks[1]!.end();
  await sleep(DELAY + 30);
  expect(checks).toHaveLength(2);
  await completion.close();
});

it('a failed check is logged and the next settle is checked again', async () => {
  const { completion, checks, settled } = harness();
  settled('S1');
  await sleep(DELAY + 30);
  checks[0]!.end(new Error('connection lost'));
  await sleep(5);
  settled('S1');
  await sleep(DELAY + 30);
  expect(checks).toHaveLength(2);
  checks[1]!.end();
  await completion.close();
});

it('close() makes the checks still due at once, waits for them and for those running, and is idempotent', async () => {
  const { completion, checks, settled } = harness();
  settled('S1');
  await sleep(DELAY + 30);
  settled('S1'); // during S1's running check: one more
  settled('S2'); // due, not yet started
  let closed = false;
  const closing = completion.close().then(() => (closed = true));
  await sleep(5);
  expect(checks.map((c) => c.scheduleId)).toEqual(['S1', 'S2']);
  checks[1]!.end();
  checks[0]!.end();
  // S1's second check, without waiting out the delay.
  await sleep(10);
  expect(checks.map((c) => c.scheduleId)).toEqual(['S1', 'S2', 'S1']);
  expect(closed).toBe(false);
  checks[2]!.end();
  await closing;
  expect(closed).toBe(true);
  await completion.close();
});
