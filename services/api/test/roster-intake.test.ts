import { Readable } from 'node:stream';
import { deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { RosterIntake, transferable } from '../src/schedules/roster-intake';
import { onePairingRoster } from '@crew/test-support';

/* The intake thread on its own: warm start, every answer, encoded uploads, limits, and a client that goes away. */

const LIMIT = 1024 * 1024;
const plain = (length: number | null = null) => ({ encoding: 'identity' as const, limit: LIMIT, length });
/** A body arriving in chunks of `size` bytes, each in a buffer of its own (as the HTTP parser hands them over). */
function chunked(bytes: Buffer, size = 1000): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) chunks.push(Buffer.from(bytes.subarray(i, i + size)));
  return Readable.from(chunks);
}

describe('RosterIntake', () => {
  const intake = new RosterIntake();
  afterAll(() => intake.close());
  const roster = onePairingRoster();
  const text = JSON.stringify(roster);
  const summary = {
    external_ref: 'roster-1',
    as_of: null,
    schedule_start_date: roster.schedule_start_date,
    schedule_end_date: roster.schedule_end_date,
    pairing_count: 1,
  };

  test('start() resolves once the thread has compiled its validator; each upload gets its own answer', async () => {
    await intake.start();
    const [ok, malformed, invalid] = await Promise.all([
      intake.check(chunked(Buffer.from(text)), plain(text.length)),
      intake.check(chunked(Buffer.from('{"pairings": [')), plain()),
      intake.check(chunked(Buffer.from(JSON.stringify({ ...roster, schedule_end_date: '2027-02-30' }))), plain()),
    ]);
    expect(ok).toEqual({ kind: 'ok', summary, compressed: expect.any(Buffer) });
    if (ok.kind === 'ok') expect(gunzipSync(ok.compressed).toString()).toBe(text);
    expect(malformed).toEqual({ kind: 'malformed' });
    expect(invalid).toEqual({
      kind: 'invalid',
      issues: [{ field: '/schedule_end_date', issue: 'must be a valid date' }],
    });
    expect(intake.inFlight).toBe(0);
  });

  test('a gzip upload is decoded and stored as sent; a deflate upload is decoded and stored gzipped', async () => {
    const gz = gzipSync(text);
    const fromGzip = await intake.check(chunked(gz, 100), { encoding: 'gzip', limit: LIMIT, length: gz.byteLength });
    expect(fromGzip).toMatchObject({ kind: 'ok', summary });
    if (fromGzip.kind === 'ok') expect(fromGzip.compressed.equals(gz)).toBe(true);
    const fromDeflate = await intake.check(chunked(deflateSync(text), 100), {
      encoding: 'deflate',
      limit: LIMIT,
      length: null,
    });
    expect(fromDeflate).toMatchObject({ kind: 'ok', summary });
    if (fromDeflate.kind === 'ok') expect(gunzipSync(fromDeflate.compressed).toString()).toBe(text);
  });

  test('a broken gzip stream is unreadable', async () => {
    const broken = gzipSync(text).subarray(0, 40);
    expect(await intake.check(chunked(broken), { encoding: 'gzip', limit: LIMIT, length: null })).toEqual({
      kind: 'unreadable',
    });
  });

  test('the limit applies to the decoded size: a small gzip of a big body is too large', async () => {
    const bomb = gzipSync(Buffer.alloc(LIMIT + 1, 32));
    expect(bomb.byteLength).toBeLessThan(LIMIT / 100);
    expect(await intake.check(chunked(bomb), { encoding: 'gzip', limit: LIMIT, length: bomb.byteLength })).toEqual({
      kind: 'too_large',
    });
  });

  test('a plain body over the limit is refused while it arrives: reading stops', async () => {
    const body = chunked(Buffer.alloc(3 * LIMIT, 32), 64 * 1024);
    expect(await intake.check(body, plain())).toEqual({ kind: 'too_large' });
    expect(body.readableFlowing).toBe(false);
    expect(intake.inFlight).toBe(0);
  });

  test('a client that goes away mid-upload: unreadable, and nothing is kept for it', async () => {
    const body = new Readable({ read() {} });
    const answer = intake.check(body, plain(10_000));
    body.push(Buffer.from('{"schedule_start_date": "2027-'));
    await new Promise((r) => setImmediate(r));
    body.destroy(new Error('aborted'));
    expect(await answer).toEqual({ kind: 'unreadable' });
    expect(intake.inFlight).toBe(0);
    // The thread still works afterwards.
    expect((await intake.check(chunked(Buffer.from(text)), plain())).kind).toBe('ok');
  });

  test('close() is idempotent, and a later check starts a new thread', async () => {
    await intake.close();
    await intake.close();
    expect((await intake.check(chunked(Buffer.from(text)), plain())).kind).toBe('ok');
  });
});

describe('transferable', () => {
  test('a buffer that owns its memory moves without a copy', () => {
    const big = Buffer.alloc(1 << 20, 7);
    const { view, transfer } = transferable(big);
    expect(view).toBe(big);
    expect(transfer).toEqual([big.buffer]);
  });

  test('a small buffer from the shared pool is copied, so the pool stays usable', () => {
    const small = Buffer.from('{"a":1}');
    expect(small.byteLength).toBeLessThan(small.buffer.byteLength);
    const { view, transfer } = transferable(small);
    expect(view).not.toBe(small);
    expect(Buffer.from(view).toString()).toBe('{"a":1}');
    expect(transfer).toEqual([view.buffer]);
  });

  test('chunks handed to the thread are moved, not copied: the sender no longer holds them', async () => {
    const intake = new RosterIntake();
    try {
      const chunk = Buffer.alloc(64 * 1024, 32);
      await intake.check(Readable.from([chunk]), plain());
      expect(chunk.byteLength).toBe(0);
    } finally {
      await intake.close();
    }
  });
});

describe('RosterIntake out of heap', () => {
  // Deployed, NODE_OPTIONS' --max-old-space-size caps the thread's heap (it overrides resourceLimits); here the
  // cap comes from resourceLimits, so this process must not set the flag.
  const capped = !/--max-old-space-size/.test(`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`);
  const intake = new RosterIntake({ resourceLimits: { maxOldGenerationSizeMb: 64 } });
  afterAll(() => intake.close());

  (capped ? test : test.skip)(
    'a roster too big for the thread fails the uploads in flight on it; the process stays up and the next upload gets a new thread',
    async () => {
      await intake.start();
      // About 24 MB of JSON whose parsed objects need several times the 64 MB heap.
      const row = JSON.stringify({ pairing_id: 'P', crew: [{ employee_id: 'E1' }], legs: [1, 2, 3] });
      const big = Buffer.from(`{"pairings":[${Array(300_000).fill(row).join(',')}]}`);
      const text = JSON.stringify(onePairingRoster());
      const limit = 64 * 1024 * 1024;
      const [huge, beside] = await Promise.allSettled([
        intake.check(chunked(big, 64 * 1024), { encoding: 'identity', limit, length: big.byteLength }),
        intake.check(chunked(Buffer.from(text)), { encoding: 'identity', limit, length: null }),
      ]);
      expect(huge).toMatchObject({ status: 'rejected', reason: { code: 'ERR_WORKER_OUT_OF_MEMORY' } });
      // It shares the thread: answered or failed with it, never left hanging.
      expect(['fulfilled', 'rejected']).toContain(beside.status);
      expect(intake.inFlight).toBe(0);
      expect((await intake.check(chunked(Buffer.from(text)), plain())).kind).toBe('ok');
    },
  );
});
