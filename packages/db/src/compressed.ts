import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

/**
 * Output chunk of compression on libuv's pool. zlib's default (16 KB) makes a 65 MB roster 4,000 pool jobs,
 * each waiting for the event loop to hand over the next: 1.0-1.2 s to gunzip an L roster, 0.2 s in 4 MB chunks.
 */
const POOL_CHUNK = 4 * 1024 * 1024;
/** Bounds of an output chunk taken from a gzip trailer's size (a chunk is allocated whole, before inflating). */
const MIN_WHOLE_CHUNK = 64 * 1024;
const MAX_WHOLE_CHUNK = 512 * 1024 * 1024;

/**
 * The output chunk for decompressing `compressed` in one piece: the uncompressed size its gzip trailer gives
 * (ISIZE, the last 4 bytes, little-endian) plus one byte, so zlib ends with one buffer and nothing to
 * concatenate on the event loop (an L roster: 52-65 ms of the main thread in 4 MB chunks, 4-8 ms whole).
 * ISIZE is only a hint (modulo 2^32; the last member's alone in a multi-member upload): one smaller than the
 * compressed bytes themselves is not believed (POOL_CHUNK then, as before), and with any other wrong one zlib
 * fills more chunks and joins them. The text is the same whatever the chunk.
 */
export function wholeOutputChunk(compressed: Uint8Array): number {
  const n = compressed.byteLength;
  if (n < 18) return MIN_WHOLE_CHUNK;
  const isize =
    (compressed[n - 4]! | (compressed[n - 3]! << 8) | (compressed[n - 2]! << 16) | (compressed[n - 1]! << 24)) >>> 0;
  if (isize < n) return POOL_CHUNK;
  return Math.min(Math.max(isize + 1, MIN_WHOLE_CHUNK), MAX_WHOLE_CHUNK);
}

/** The bytes of a gzip-compressed blob (a stored roster), decompressed off the event loop. */
export function gunzipBytes(compressed: Uint8Array): Promise<Buffer> {
  return gunzipAsync(compressed, { chunkSize: wholeOutputChunk(compressed) });
}

/** The text of a gzip-compressed blob (a stored roster, a roster state), decompressed off the event loop. */
export async function gunzipText(compressed: Uint8Array): Promise<string> {
  return (await gunzipBytes(compressed)).toString('utf8');
}

/**
 * The output chunk for compressing `size` bytes. Each compression allocates its chunk outside the JS heap, garbage
 * once the result is out, and V8 answers external memory with full collections: a POOL_CHUNK (4 MB) for each
 * 600 KB invoice body made the api's thread collect its whole heap 9-10 times per 38 invoices (1-2 times with this
 * chunk). Level 1 writes JSON in a fifth to a tenth of its size, so a quarter of the input is one chunk nearly
 * always (a larger output fills more chunks, which zlib joins).
 */
export function compressionChunk(size: number): number {
  return Math.min(Math.max(Math.ceil(size / 4), MIN_WHOLE_CHUNK), POOL_CHUNK);
}

/** Bytes gzip-compressed, off the event loop (level 1: stored once, read once). */
export function gzipBytes(bytes: Uint8Array): Promise<Buffer> {
  return gzipAsync(bytes, { level: 1, chunkSize: compressionChunk(bytes.byteLength) });
}

/** A text gzip-compressed (gzipBytes of its UTF-8). */
export function gzipText(text: string): Promise<Buffer> {
  return gzipBytes(Buffer.from(text));
}

/** A value as gzip-compressed JSON (gzipText). */
export function gzipJson(value: unknown): Promise<Buffer> {
  return gzipText(JSON.stringify(value));
}
