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

export type IntakeResult = { kind: 'malformed' } | { kind: 'invalid'; issues: ValidationIssue[] } | { kind: 'ok'; summary: RosterSummary };
export interface IntakeRequest {
  id: number;
  bytes: Uint8Array;
}

// The thread loads TypeScript the way this process does (tsx), whether run by node --import tsx or by jest.
const BOOTSTRAP = `require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);`;

/** One worker thread that checks submitted rosters off the event loop, one at a time, in order. */
export class RosterIntake {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: IntakeResult) => void; reject: (e: Error) => void }>();

  check(raw: Buffer): Promise<IntakeResult> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise<IntakeResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, bytes: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength) } satisfies IntakeRequest);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { entry: path.join(__dirname, 'roster-intake.thread.ts') } });
    // The thread must never keep a stopping process alive.
    worker.unref();
    worker.on('message', ({ id, result }: { id: number; result: IntakeResult }) => {
      this.pending.get(id)?.resolve(result);
      this.pending.delete(id);
    });
    const fail = (err: Error) => {
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
