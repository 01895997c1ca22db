/**
 * The process supervisor of `npm start`: runs each child with prefixed output and restarts one that exits
 * on its own with exponential back-off, as Kubernetes restarts a crashed container, instead of stopping
 * the others. SIGINT / SIGTERM stop restarting, are passed on to every child once, and the supervisor exits
 * when all of them have.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  /** ANSI colour code of the name prefix on a terminal (e.g. 36 cyan). */
  color?: number;
}

export interface SupervisorOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** First restart delay; it doubles with each crash in a row, up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that ran this long before crashing starts again from initialDelayMs. */
  resetAfterMs?: number;
  /** Where prefixed output and the supervisor's own lines go. */
  write?: (line: string) => void;
}

interface Slot {
  spec: ChildSpec;
  child: ChildProcess | null;
  crashes: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
  /** Exit code of the last run after a stop (null: killed by the stop's signal). */
  stopCode: number | null;
}

/** A signal repeated within this window is the same Ctrl-C delivered twice, not an insistence. */
const REPEATED_SIGNAL_MS = 1000;

export class Supervisor {
  private readonly slots: Slot[];
  private readonly write: (line: string) => void;
  private readonly color: boolean;
  private stopping: NodeJS.Signals | null = null;
  private stoppedAt = 0;
  private finish!: (code: number) => void;
  /** Resolves with the supervisor's exit code once every child has exited after stop(). */
  readonly done: Promise<number>;

  constructor(
    specs: ChildSpec[],
    private readonly options: SupervisorOptions = {},
  ) {
    this.slots = specs.map((spec) => ({ spec, child: null, crashes: 0, startedAt: 0, timer: null, stopCode: 0 }));
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    this.color = options.write === undefined && process.stdout.isTTY === true;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  start(): this {
    for (const slot of this.slots) this.run(slot);
    return this;
  }

  /** Process ids of the running children by name (tests). */
  pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.slots.map((s) => [s.spec.name, s.child?.pid]));
  }

  /**
   * Stops restarting and passes the signal on; a second call passes it on again (the services then exit at
   * once) — unless it comes within a second of the first: one Ctrl-C reaches this process twice (the terminal's
   * process group and npm relaying it), and that must stay one graceful stop.
   */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    const first = this.stopping === null;
    if (!first && Date.now() - this.stoppedAt < REPEATED_SIGNAL_MS) return this.done;
    this.stopping = signal;
    this.stoppedAt = Date.now();
    if (first) this.log(`${signal}: stopping every process`);
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.child?.kill(signal);
    }
    this.settle();
    return this.done;
  }

  /** Kills whatever still runs, synchronously (the supervisor itself is exiting). */
  killAll(): void {
    for (const slot of this.slots) slot.child?.kill('SIGKILL');
  }

  private run(slot: Slot): void {
    slot.timer = null;
    const child = spawn(slot.spec.command, slot.spec.args, {
      cwd: this.options.cwd,
      env: this.options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a terminal's Ctrl-C reaches only the supervisor, which passes it on once
      // (a service treats a second signal as "exit now").
      detached: true,
    });
    slot.child = child;
    slot.startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
        this.write(`${this.prefix(slot.spec)} ${line}`),
      );
    child.once('error', (err) => this.log(`${slot.spec.name} could not be started: ${err.message}`));
    child.once('close', (code, signal) => this.exited(slot, child, code, signal));
  }

  private exited(slot: Slot, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.child !== child) return;
    slot.child = null;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (this.stopping) {
      this.log(`${slot.spec.name} exited (${how})`);
      slot.stopCode = signal === this.stopping ? 0 : code;
      this.settle();
      return;
    }
    if (Date.now() - slot.startedAt >= (this.options.resetAfterMs ?? 60_000)) slot.crashes = 0;
    const delay = Math.min(
      (this.options.initialDelayMs ?? 1000) * 2 ** slot.crashes,
      this.options.maxDelayMs ?? 30_000,
    );
    slot.crashes += 1;
    this.log(`${slot.spec.name} exited (${how}); restarting in ${delay} ms (crash ${slot.crashes} in a row)`);
    slot.timer = setTimeout(() => this.run(slot), delay);
  }

  private settle(): void {
    if (!this.stopping || this.slots.some((s) => s.child)) return;
    this.finish(this.slots.every((s) => s.stopCode === 0) ? 0 : 1);
  }

  private prefix(spec: ChildSpec): string {
    return this.color && spec.color ? `\x1b[${spec.color}m[${spec.name}]\x1b[0m` : `[${spec.name}]`;
  }

  private log(message: string): void {
    this.write(`[supervisor] ${message}`);
  }
}
