import { hash } from 'node:crypto';

/*
 * Where each element of a stored roster's pairings array lies in its (uncompressed) bytes, and a hash of each
 * element's bytes: its content, which the diff basis compares (issue 12). The api finds them while it compresses
 * the roster and stores them beside it (schedule_payloads.pairing_elements); the worker reads them instead of
 * scanning 70 MB again. Stored as: element count (u32), then each element's start and end offsets (u32 each),
 * then each element's content: the first 16 bytes of the SHA-256 of its bytes.
 */

const DIGEST_BYTES = 16;
const RANGE_BYTES = 8;

/** A roster's pairing elements: byte ranges and contents, in roster order. */
export interface PairingElements {
  ranges: [number, number][];
  /** Each element's content, as text (base64). */
  contents: string[];
}

/** An element's content as stored: the first 16 bytes of the SHA-256 of its bytes. */
export function pairingElementDigest(bytes: Uint8Array, [start, end]: readonly [number, number]): Buffer {
  return hash('sha256', bytes.subarray(start, end), 'buffer').subarray(0, DIGEST_BYTES);
}

/**
 * The stored form of the elements at `ranges` of `bytes` (engine pairingElementRanges gives the ranges), with the
 * digests of the first of them when already computed (pairingElementDigest, in order).
 */
export function encodePairingElements(bytes: Uint8Array, ranges: readonly (readonly [number, number])[], digests: readonly Uint8Array[] = []): Buffer {
  const out = Buffer.allocUnsafe(4 + ranges.length * (RANGE_BYTES + DIGEST_BYTES));
  out.writeUInt32LE(ranges.length, 0);
  let at = 4;
  let digestAt = 4 + ranges.length * RANGE_BYTES;
  ranges.forEach((range, i) => {
    out.writeUInt32LE(range[0], at);
    out.writeUInt32LE(range[1], at + 4);
    at += RANGE_BYTES;
    out.set(digests[i] ?? pairingElementDigest(bytes, range), digestAt);
    digestAt += DIGEST_BYTES;
  });
  return out;
}

/** The elements a stored form holds, or null when it is not one (the worker then scans the roster itself). */
export function decodePairingElements(stored: Uint8Array): PairingElements | null {
  const b = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (b.length < 4) return null;
  const count = b.readUInt32LE(0);
  if (b.length !== 4 + count * (RANGE_BYTES + DIGEST_BYTES)) return null;
  const ranges: [number, number][] = [];
  const contents: string[] = [];
  let digestAt = 4 + count * RANGE_BYTES;
  for (let i = 0, at = 4; i < count; i++, at += RANGE_BYTES, digestAt += DIGEST_BYTES) {
    ranges.push([b.readUInt32LE(at), b.readUInt32LE(at + 4)]);
    contents.push(b.toString('base64', digestAt, digestAt + DIGEST_BYTES));
  }
  return { ranges, contents };
}
