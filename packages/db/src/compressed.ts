import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

/**
 * Output chunk of compression on libuv's pool. zlib's default (16 KB) makes a 65 MB roster 4,000 pool jobs,
 * each waiting for the event loop to hand over the next: 1.0-1.2 s to gunzip an L roster, 0.2 s in 4 MB chunks.
 */
const POOL_CHUNK = 4 * 1024 * 1024;

/** The text of a gzip-compressed blob (a stored roster, a roster state), decompressed off the event loop. */
export async function gunzipText(compressed: Uint8Array): Promise<string> {
  return (await gunzipAsync(compressed, { chunkSize: POOL_CHUNK })).toString('utf8');
}

/** A value as gzip-compressed JSON, compressed off the event loop (level 1: stored once, read once). */
export function gzipJson(value: unknown): Promise<Buffer> {
  return gzipAsync(Buffer.from(JSON.stringify(value)), { level: 1, chunkSize: POOL_CHUNK });
}
