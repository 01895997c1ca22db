import type { DerivedActionItem, RequestedBooking } from '@crew/engine';
import type { DiffWrites } from '../src/schedules/diff-writes';
import { SliceWriter, WRITES_AHEAD } from '../src/schedules/slice-writer';

/*
 * The SliceWriter plans and writes a diff's items a slice at a time while the diff is still handing them over:
 * every item once, in order; never more than WRITES_AHEAD writes queued; a failed write surfaces.
 */

const item = (n: number) => ({ item_key: `K${n}` }) as unknown as DerivedActionItem;
const requested = new Map<string, RequestedBooking[]>();

/** Writes that end only when the test says so, recorded in the order they were queued. */
function harness(sliceSize: number, failAt?: number) {
  const writes: { keys: string[]; end: (err?: Error) => void; ended: boolean }[] = [];
  let maxInFlight = 0;
  const writer = new SliceWriter({
    sliceSize,
    pendingReviewIds: 5,
    plan: (slice) =>
      Promise.resolve({
        actionItems: slice.map((i) => ({ action_id: i.item_key })),
        newBookings: slice.map(() => ({})),
        bookingChanges: [],
        bookingEvents: [],
        jobs: [],
        adoptions: [],
        open: 1,
        pendingReview: slice.map((i) => i.item_key),
      } as unknown as DiffWrites),
    write: (w) =>
      new Promise<void>((resolve, reject) => {
        const entry = {
          keys: w.actionItems.map((a) => a.action_id!),
          ended: false,
          end: (err?: Error) => {
            entry.ended = true;
            if (err) reject(err);
            else resolve();
          },
        };
        writes.push(entry);
        maxInFlight = Math.max(maxInFlight, writes.filter((x) => !x.ended).length);
        if (failAt === writes.length) entry.end(new Error('COPY refused'));
      }),
  });
  return { writer, writes, maxInFlight: () => maxInFlight };
}

/** Ends every write queued so far, oldest first, as Postgres would. */
const drain = (writes: { end: () => void; ended: boolean }[]) => writes.filter((w) => !w.ended).forEach((w) => w.end());

test('full slices are written as the items come, no more than WRITES_AHEAD at once, then the rest at the end, every item once and in order', async () => {
  const { writer, writes, maxInFlight } = harness(3);
  let n = 0;
  for (let part = 0; part < 6; part++) {
    writer.add(Array.from({ length: 2 }, () => item(n++)));
    await writer.writeReady(requested);
  }
  // 12 items so far: room for WRITES_AHEAD slices while none of them has ended.
  expect(writes).toHaveLength(WRITES_AHEAD);
  drain(writes);
  await new Promise((r) => setImmediate(r));
  writer.add([item(n++)]);
  await writer.writeReady(requested);
  expect(writes).toHaveLength(4);
  const finished = writer.finish(requested);
  // finish() waits for room before each write it still queues.
  for (let i = 0; i < 10 && writes.length < 5; i++) {
    drain(writes);
    await new Promise((r) => setImmediate(r));
  }
  drain(writes);
  const pendingReview = await finished;
  expect(writes.flatMap((w) => w.keys)).toEqual(Array.from({ length: 13 }, (_, i) => `K${i}`));
  expect(writes.map((w) => w.keys.length)).toEqual([3, 3, 3, 3, 1]);
  expect(maxInFlight()).toBeLessThanOrEqual(WRITES_AHEAD);
  expect(pendingReview).toEqual({ count: 13, ids: ['K0', 'K1', 'K2', 'K3', 'K4'] });
  expect(writer.open).toBe(5);
  expect(writer.newBookings).toBe(13);
});

test('a failed write is thrown by the next call, and by finish()', async () => {
  const { writer, writes } = harness(2, 1);
  writer.add([item(0), item(1), item(2), item(3)]);
  await writer.writeReady(requested);
  expect(writes).toHaveLength(2);
  await new Promise((r) => setImmediate(r));
  writer.add([item(4), item(5)]);
  await expect(writer.writeReady(requested)).rejects.toThrow('COPY refused');
  drain(writes);
  await expect(writer.finish(requested)).rejects.toThrow('COPY refused');
});

test('nothing to write: finish() writes nothing', async () => {
  const { writer, writes } = harness(5);
  await expect(writer.finish(requested)).resolves.toEqual({ count: 0, ids: [] });
  expect(writes).toHaveLength(0);
});
