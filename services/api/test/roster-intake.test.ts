import { gunzipSync } from 'node:zlib';
import { RosterIntake, transferable } from '../src/schedules/roster-intake';
import { onePairingRoster } from '../../../test/support/rosters';

/* The intake thread on its own: warm start, the three answers, and a close that can be repeated. */

describe('RosterIntake', () => {
  const intake = new RosterIntake();
  afterAll(() => intake.close());

  test('start() resolves once the thread has compiled its validator; checks answer in order', async () => {
    await intake.start();
    const roster = onePairingRoster();
    const text = JSON.stringify(roster);
    const [ok, malformed, invalid] = await Promise.all([
      intake.check(Buffer.from(text)),
      intake.check(Buffer.from('{"pairings": [')),
      intake.check(Buffer.from(JSON.stringify({ ...roster, schedule_end_date: '2027-02-30' }))),
    ]);
    expect(ok).toEqual({
      kind: 'ok',
      summary: { external_ref: 'roster-1', as_of: null, schedule_start_date: roster.schedule_start_date, schedule_end_date: roster.schedule_end_date, pairing_count: 1 },
      compressed: expect.any(Buffer),
    });
    if (ok.kind === 'ok') expect(gunzipSync(ok.compressed).toString()).toBe(text);
    expect(malformed).toEqual({ kind: 'malformed' });
    expect(invalid).toEqual({ kind: 'invalid', issues: [{ field: '/schedule_end_date', issue: 'must be a valid date' }] });
  });

  test('close() is idempotent, and a later check starts a new thread', async () => {
    await intake.close();
    await intake.close();
    const again = await intake.check(Buffer.from(JSON.stringify(onePairingRoster())));
    expect(again.kind).toBe('ok');
  });
});

describe('transferable', () => {
  test('a buffer that owns its memory moves without a copy (and is detached by the transfer)', async () => {
    const big = Buffer.alloc(1 << 20, 7);
    const { view, transfer } = transferable(big);
    expect(view).toBe(big);
    expect(transfer).toEqual([big.buffer]);
    const intake = new RosterIntake();
    try {
      await intake.check(big);
      expect(big.byteLength).toBe(0);
    } finally {
      await intake.close();
    }
  });

  test('a small buffer from the shared pool is copied, so the pool stays usable', () => {
    const small = Buffer.from('{"a":1}');
    expect(small.byteLength).toBeLessThan(small.buffer.byteLength);
    const { view, transfer } = transferable(small);
    expect(view).not.toBe(small);
    expect(Buffer.from(view).toString()).toBe('{"a":1}');
    expect(transfer).toEqual([view.buffer]);
  });
});
