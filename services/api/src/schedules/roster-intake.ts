import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ValidationIssue } from '@crew/contracts';

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
  | { kind: 'ok'; summary: RosterSummary; compressed: Bytes };
export interface IntakeRequest {
  id: number;
  bytes: Uint8Array;
}
/** What the thread posts: `ready` once its validator is compiled, then one answer (or failure) per request. */
export type IntakeMessage = { ready: true } | { id: number; result: IntakeResult } | { id: number; error: string };

/**
 * The bytes as a view that owns its whole ArrayBuffer, and that buffer to transfer: a 75 MB body
 * then crosses to the other thread without a copy (a structured clone of it blocked the event loop
 * for 30-180 ms). A view into a shared pool (small Buffers) is copied, since transferring the pool
 * would detach every other Buffer in it.
 */
export function transferable(bytes: Uint8Array): { view: Uint8Array; transfer: ArrayBuffer[] } {
  const owns = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = owns ? bytes : new Uint8Array(bytes);
  return { view, transfer: [view.buffer as ArrayBuffer] };
}

// The thread loads TypeScript the way this process does (tsx), whether run by node --import tsx or by jest.
const BOOTSTRAP = `require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);`;

/**
 * One worker thread that parses, validates and compresses submitted rosters off the event loop. A
 * checked body is handed over (transferred): the caller must not use it afterwards.
 */
export class RosterIntake {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: IntakeResult<Buffer>) => void; reject: (e: Error) => void }>();

  /**
   * Starts the thread and resolves once it has loaded and compiled the roster schema, so that the
   * first roster after a deploy does not pay for it. Optional: `check` starts it too.
   */
  start(): Promise<void> {
    this.ensure();
    return this.ready!;
  }

  /** Takes ownership of `raw` (its memory moves to the thread). */
  check(raw: Uint8Array): Promise<IntakeResult<Buffer>> {
    const worker = this.ensure();
    const id = this.nextId++;
    const { view, transfer } = transferable(raw);
    return new Promise<IntakeResult<Buffer>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, bytes: view } satisfies IntakeRequest, transfer);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { entry: path.join(__dirname, 'roster-intake.thread.ts') } });
    // The thread must never keep a stopping process alive.
    worker.unref();
    let markReady!: () => void;
    let markFailed!: (e: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // Only a caller of start() needs to hear that the thread died before it was ready; check() hears it too.
    this.ready.catch(() => undefined);
    worker.on('message', (m: IntakeMessage) => {
      if ('ready' in m) return markReady();
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if ('error' in m) p?.reject(new Error(`roster intake failed: ${m.error}`));
      else if (m.result.kind === 'ok') p?.resolve({ ...m.result, compressed: Buffer.from(m.result.compressed.buffer, m.result.compressed.byteOffset, m.result.compressed.byteLength) });
      else p?.resolve(m.result);
    });
    const fail = (err: Error) => {
      markFailed(err);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`roster intake thread exited (${code})`)));
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
