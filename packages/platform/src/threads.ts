import path from 'node:path';
import { Worker, workerData } from 'node:worker_threads';

// From sources (node --import tsx, or jest) a thread loads TypeScript the way its process does, through tsx.
const BOOTSTRAP = `require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);`;

/**
 * Starts the worker thread `<name>` that lives beside the calling module: built (`npm run build`), the caller
 * is part of a bundle in `dist/` and the thread is its own bundle there (`<dir>/<name>.js`, plain node, no
 * tsx in production); from sources it is `<dir>/<name>.ts`, loaded through tsx. `data` reaches the thread
 * as `threadData()`.
 */
export function startThread(dir: string, name: string, bundled: boolean, data?: unknown): Worker {
  if (bundled) return new Worker(path.join(dir, `${name}.js`), { workerData: { data } });
  return new Worker(BOOTSTRAP, { eval: true, workerData: { entry: path.join(dir, `${name}.ts`), data } });
}

/** In a thread started by `startThread`: the data it was given. */
export function threadData<T>(): T {
  return (workerData as { data: T }).data;
}
