import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { ValidationIssue } from '@crew/contracts';
import { startThread, type StreamedBody } from '@crew/platform';

export interface RosterSummary {
  external_ref: string | null;
  as_of: string | null;
  schedule_start_date: string;
  schedule_end_date: string;
  pairing_count: number;
}

/** `ok` carries the roster gzip-compressed, as it is stored (a plain Uint8Array as it crosses threads). */
export type IntakeResult<Bytes extends Uint8Array = Uint8Array> =
  | { kind: 'malformed' }
  | { kind: 'invalid'; issues: ValidationIssue[] }
  | { kind: 'too_large' }
  /** The bytes could not be decoded (a broken gzip stream), or the client went away mid-upload. */
  | { kind: 'unreadable' }
  | { kind: 'ok'; summary: RosterSummary; compressed: Bytes };

/** Messages to the thread: an upload starts, its bytes arrive in chunks, it ends (or is dropped). */
export type IntakeRequest =
  | { id: number; op: 'start'; encoding: StreamedBody['encoding']; limit: number; length: number | null }
  | { id: number; op: 'chunks'; parts: Uint8Array[] }
  | { id: number; op: 'end' }
  | { id: number; op: 'drop' };

/** What the thread posts: `ready` once its validator is compiled, then one answer (or failure) per upload. */
export type IntakeMessage = { ready: true } | { id: number; result: IntakeResult } | { id: number; error: string };

/**
 * The bytes as a view that owns its whole ArrayBuffer, and that buffer to transfer: the bytes then
 * cross to the other thread without a copy. A view into a shared pool (small Buffers) is copied,
 * since transferring the pool would detach every other Buffer in it.
 */
export function transferable(bytes: Uint8Array): { view: Uint8Array; transfer: ArrayBuffer[] } {
  const owns =
    bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = owns ? bytes : new Uint8Array(bytes);
  return { view, transfer: [view.buffer as ArrayBuffer] };
}

const BATCH_BYTES = 1024 * 1024;

/**
 * One worker thread that receives, decodes, parses, validates and compresses submitted rosters. The
 * event loop only moves each chunk of an upload to the thread as it arrives (no 75 MB concatenation,
 * no 75 MB of buffers waiting for its garbage collector), so health checks and other requests stay fast.
 */
export class RosterIntake {
  /**
   * `resourceLimits` are the thread's heap limits (tests; deployed, NODE_OPTIONS' --max-old-space-size caps this
   * thread's heap as it does the main thread's). A thread out of heap fails the uploads in flight on it; the
   * next upload starts a new one.
   */
  constructor(private readonly options: { resourceLimits?: ResourceLimits } = {}) {}

  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (r: IntakeResult<Buffer>) => void; reject: (e: Error) => void }
  >();

  /**
   * Starts the thread and resolves once it has loaded and compiled the roster schema, so that the
   * first roster after a deploy does not pay for it. Optional: `check` starts it too.
   */
  start(): Promise<void> {
    this.ensure();
    return this.ready!;
  }

  /** Uploads being received or checked (for tests and metrics). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Reads `body` to its end, chunk by chunk into the thread, and answers what the thread found. */
  check(body: Readable, info: StreamedBody): Promise<IntakeResult<Buffer>> {
    const worker = this.ensure();
    const id = this.nextId++;
    const send = (m: IntakeRequest, transfer: ArrayBuffer[] = []) => worker.postMessage(m, transfer);
    return new Promise<IntakeResult<Buffer>>((resolve, reject) => {
      let received = 0;
      let settled = false;
      // Chunks go over in batches of about a megabyte: one message per 16-64 KB chunk costs both threads more.
      let batch: Uint8Array[] = [];
      let transfers: ArrayBuffer[] = [];
      let batched = 0;
      const flush = () => {
        if (batch.length) send({ id, op: 'chunks', parts: batch }, transfers);
        batch = [];
        transfers = [];
        batched = 0;
      };
      const stop = (result: IntakeResult<Buffer>) => {
        if (settled) return;
        settled = true;
        body.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
        body.pause();
        send({ id, op: 'drop' });
        this.pending.delete(id);
        resolve(result);
      };
      const onData = (chunk: Buffer) => {
        received += chunk.byteLength;
        if (info.encoding === 'identity' && received > info.limit) return stop({ kind: 'too_large' });
        const { view, transfer } = transferable(chunk);
        batch.push(view);
        transfers.push(...transfer);
        batched += view.byteLength;
        if (batched >= BATCH_BYTES) flush();
      };
      const onEnd = () => {
        settled = true;
        body.off('error', onGone).off('close', onGone);
        flush();
        send({ id, op: 'end' });
      };
      const onGone = () => stop({ kind: 'unreadable' });
      this.pending.set(id, { resolve, reject });
      send({ id, op: 'start', encoding: info.encoding, limit: info.limit, length: info.length });
      body.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // Built (`npm run build`), this module is part of dist/main.js and the thread is dist/roster-intake.thread.js.
    const { worker, ready } = startThread<Exclude<IntakeMessage, { ready: true }>>(
      __dirname,
      'roster-intake.thread',
      path.extname(__filename) === '.js',
      {
        resourceLimits: this.options.resourceLimits,
        onMessage: (m) => {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if ('error' in m) p?.reject(new Error(`roster intake failed: ${m.error}`));
          else if (m.result.kind === 'ok')
            p?.resolve({
              ...m.result,
              compressed: Buffer.from(
                m.result.compressed.buffer,
                m.result.compressed.byteOffset,
                m.result.compressed.byteLength,
              ),
            });
          else p?.resolve(m.result);
        },
        onEnd: (err) => {
          for (const p of this.pending.values()) p.reject(err);
          this.pending.clear();
          if (this.worker === worker) this.worker = null;
        },
      },
    );
    this.ready = ready;
    this.worker = worker;
    return worker;
  }

  /** Idempotent. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
