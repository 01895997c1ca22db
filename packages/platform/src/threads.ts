import path from 'node:path';
import { Worker, workerData, type ResourceLimits } from 'node:worker_threads';

// From sources (node --import tsx, or jest) a thread loads TypeScript the way its process does, through tsx.
const BOOTSTRAP = `require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);`;

export interface ThreadHandlers<Message> {
  /** What the thread gets as `threadData()` (a structured clone). */
  data?: unknown;
  /**
   * The thread's heap limits. `--max-old-space-size` (NODE_OPTIONS) overrides maxOldGenerationSizeMb: with it
   * set, as deployed, every thread's old generation is capped at the flag's value, as the main thread's is.
   */
  resourceLimits?: ResourceLimits;
  /** Every message but the thread's first `{ ready: true }`. */
  onMessage(message: Message): void;
  /** Once, when the thread fails or exits. */
  onEnd(err: Error): void;
}

/**
 * Starts the worker thread `<name>` that lives beside the calling module: built (`npm run build`), the caller
 * is part of a bundle in `dist/` and the thread is its own bundle there (`<dir>/<name>.js`, plain node, no
 * tsx in production); from sources it is `<dir>/<name>.ts`, loaded through tsx. The thread never keeps a
 * stopping process alive (unref). `ready` resolves on its `{ ready: true }` message and rejects if it ends first.
 */
export function startThread<Message>(
  dir: string,
  name: string,
  bundled: boolean,
  handlers: ThreadHandlers<Message>,
): { worker: Worker; ready: Promise<void> } {
  const { resourceLimits } = handlers;
  const worker = bundled
    ? new Worker(path.join(dir, `${name}.js`), { workerData: { data: handlers.data }, resourceLimits })
    : new Worker(BOOTSTRAP, {
        eval: true,
        workerData: { entry: path.join(dir, `${name}.ts`), data: handlers.data },
        resourceLimits,
      });
  worker.unref();
  let markReady!: () => void;
  let markFailed!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  // Only a caller waiting for `ready` needs to hear that the thread died before it was; onEnd hears it too.
  ready.catch(() => undefined);
  worker.on('message', (m: Message | { ready: true }) => {
    if (m && typeof m === 'object' && 'ready' in m) markReady();
    else handlers.onMessage(m);
  });
  let ended = false;
  const end = (err: Error) => {
    markFailed(err);
    if (ended) return;
    ended = true;
    handlers.onEnd(err);
  };
  worker.on('error', end);
  worker.on('exit', (code) => end(new Error(`thread ${name} exited (${code})`)));
  return { worker, ready };
}

/** In a thread started by `startThread`: the data it was given. */
export function threadData<T>(): T {
  return (workerData as { data: T }).data;
}
