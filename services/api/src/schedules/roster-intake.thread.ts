/**
 * Runs in a worker thread: receives a submitted roster chunk by chunk, decodes it (Content-Encoding),
 * parses, validates and compresses it, so that the api's event loop never spends a second on a big
 * airline's 75 MB of JSON (health checks and other requests stay fast).
 */
import { promisify } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { gunzipSync, gzip, inflateSync } from 'node:zlib';
import { checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import {
  transferable,
  type IntakeMessage,
  type IntakeRequest,
  type IntakeResult,
  type RosterSummary,
} from './roster-intake';

const gzipAsync = promisify(gzip);

/** A client with thousands of mistakes gets the first ones, not a megabyte of details. */
const MAX_ISSUES = 500;

type Checked = Exclude<IntakeResult, { kind: 'ok' }> | { kind: 'ok'; summary: RosterSummary };

function checkRoster(raw: Buffer): Checked {
  let data: unknown;
  try {
    data = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'malformed' };
  }
  const checked = checkBody(ScheduleSubmission, data);
  if (!checked.ok) return { kind: 'invalid', issues: checked.issues.slice(0, MAX_ISSUES) };
  const cross = scheduleSubmissionIssues(checked.value);
  if (cross.length) return { kind: 'invalid', issues: cross };
  const s = checked.value;
  return {
    kind: 'ok',
    summary: {
      external_ref: s.external_ref ?? null,
      as_of: s.as_of ?? null,
      schedule_start_date: s.schedule_start_date,
      schedule_end_date: s.schedule_end_date,
      pairing_count: s.pairings.length,
    },
  };
}

/** One upload being received: copied into one buffer as it arrives when its length was declared. */
class Upload {
  private whole: Buffer | null;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    readonly encoding: 'identity' | 'gzip' | 'deflate',
    readonly limit: number,
    length: number | null,
  ) {
    this.whole = length !== null && length <= limit ? Buffer.allocUnsafeSlow(length) : null;
  }

  add(bytes: Uint8Array): void {
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.whole && this.size + chunk.byteLength <= this.whole.byteLength) chunk.copy(this.whole, this.size);
    else this.chunks.push(chunk);
    this.size += chunk.byteLength;
  }

  /** The bytes as sent (still encoded). */
  bytes(): Buffer {
    if (!this.whole) return Buffer.concat(this.chunks, this.size);
    const head = this.whole.subarray(0, Math.min(this.size, this.whole.byteLength));
    return this.chunks.length ? Buffer.concat([head, ...this.chunks], this.size) : head;
  }
}

const uploads = new Map<number, Upload>();
const post = (m: IntakeMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);

/** Decoded bytes, or why there are none. The limit applies to the decoded size (a zip bomb is a 413). */
function decode(upload: Upload, wire: Buffer): Buffer | { kind: 'too_large' | 'unreadable' } {
  if (upload.encoding === 'identity') return wire.byteLength > upload.limit ? { kind: 'too_large' } : wire;
  try {
    return (upload.encoding === 'gzip' ? gunzipSync : inflateSync)(wire, { maxOutputLength: upload.limit });
  } catch (err) {
    return { kind: (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'unreadable' };
  }
}

async function finish(id: number, upload: Upload): Promise<void> {
  const wire = upload.bytes();
  const raw = decode(upload, wire);
  if (!Buffer.isBuffer(raw)) return post({ id, result: raw });
  // A gzip upload is stored as sent. Otherwise compression runs in libuv's pool while this thread parses;
  // an output chunk as big as the input makes it one pool job (with 16 KB chunks every step would wait for this busy thread).
  const compressing =
    upload.encoding === 'gzip'
      ? Promise.resolve(wire)
      : gzipAsync(raw, { level: 1, chunkSize: Math.max(64 * 1024, raw.byteLength) });
  compressing.catch(() => undefined);
  const checked = checkRoster(raw);
  if (checked.kind !== 'ok') return post({ id, result: checked });
  const { view, transfer } = transferable(await compressing);
  post({ id, result: { ...checked, compressed: view } }, transfer);
}

parentPort!.on('message', (m: IntakeRequest) => {
  if (m.op === 'start') uploads.set(m.id, new Upload(m.encoding, m.limit, m.length));
  else if (m.op === 'chunks') for (const part of m.parts) uploads.get(m.id)?.add(part);
  else if (m.op === 'drop') uploads.delete(m.id);
  else {
    const upload = uploads.get(m.id);
    uploads.delete(m.id);
    if (!upload) return;
    // Out of memory in zlib, say: the caller answers 500 and nothing is stored.
    finish(m.id, upload).catch((err: unknown) => post({ id: m.id, error: String(err) }));
  }
});

// Compile the schema now (checkBody compiles on first use), then tell RosterIntake.start() we are ready.
checkBody(ScheduleSubmission, null);
post({ ready: true });
