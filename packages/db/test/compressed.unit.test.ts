import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { compressionChunk, gunzipBytes, gunzipText, gzipBytes, gzipJson, wholeOutputChunk } from '../src/compressed';

/* gunzipText decompresses in one output chunk sized by the gzip trailer; the text must not depend on the chunk. */

const text = (n: number) =>
  Array.from({ length: n }, (_, i) => `{"row":${i},"name":"crew member ${i % 97}"}`).join(',');

test('the output chunk is the size the gzip trailer gives, plus one byte', () => {
  const body = Buffer.from(text(200_000));
  expect(body.byteLength).toBeGreaterThan(4 * 1024 * 1024);
  expect(wholeOutputChunk(gzipSync(body, { level: 1 }))).toBe(body.byteLength + 1);
  expect(wholeOutputChunk(gzipSync(Buffer.from(text(100))))).toBe(64 * 1024);
  // A size below the compressed bytes' own is not believed: 4 MB chunks, as before.
  expect(wholeOutputChunk(gzipSync(Buffer.from('{}')))).toBe(4 * 1024 * 1024);
  expect(wholeOutputChunk(gzipSync(randomBytes(100_000)))).toBe(4 * 1024 * 1024);
  expect(wholeOutputChunk(new Uint8Array(3))).toBe(64 * 1024);
});

test('a value comes back as it was stored', async () => {
  const value = { v: 2, rows: Array.from({ length: 50_000 }, (_, i) => [i, `E${i}`, 'Zoë ✈ 東京', null]) };
  expect(JSON.parse(await gunzipText(await gzipJson(value)))).toEqual(value);
});

test('a multi-member gzip (whose trailer gives the last member only) decompresses whole', async () => {
  const first = text(150_000);
  const last = text(50_000);
  const blob = Buffer.concat([gzipSync(Buffer.from(first)), gzipSync(Buffer.from(last))]);
  // The chunk is too small for the whole text: zlib fills several and joins them.
  expect(wholeOutputChunk(blob)).toBe(Buffer.byteLength(last) + 1);
  expect(Buffer.byteLength(first)).toBeGreaterThan(Buffer.byteLength(last));
  expect(await gunzipText(blob)).toBe(first + last);
});

test('compressing allocates a chunk of a quarter of the input, between 64 KB and 4 MB', () => {
  expect(compressionChunk(600_000)).toBe(150_000);
  expect(compressionChunk(100)).toBe(64 * 1024);
  expect(compressionChunk(65_000_000)).toBe(4 * 1024 * 1024);
});

test('compressing an invoice body allocates outside the heap about its chunk, not 4 MB', async () => {
  const body = Buffer.from(text(15_000));
  const kept: Buffer[] = [];
  const before = process.memoryUsage().external;
  // A collection meanwhile can only lower the growth; 4 MB chunks grew it by about 13 MB here.
  for (let i = 0; i < 10; i++) kept.push(await gzipBytes(body));
  expect(process.memoryUsage().external - before).toBeLessThan(6_000_000);
  expect((await gunzipBytes(kept[9]!)).equals(body)).toBe(true);
});

test('bytes that do not shrink come back whole from several chunks', async () => {
  const bytes = randomBytes(1_000_000);
  const z = await gzipBytes(bytes);
  expect(z.byteLength).toBeGreaterThan(compressionChunk(bytes.byteLength));
  expect((await gunzipBytes(z)).equals(bytes)).toBe(true);
});
