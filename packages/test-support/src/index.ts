/** Test support: imported by every package's and service's tests as `@crew/test-support`; never built or shipped. */
import path from 'node:path';

export * from './client';
export * from './database';
export * from './fixtures';
export * from './own-airline-receiver';
export * from './postgres-outage';
export * from './prom-text';
export * from './query-overlaps';
export * from './rosters';
export * from './stack';
export * from './tcp-relay';
export * from './undisturbed-run';
export * from './wait';
export * from './worker-process';

/** Preload (`node -r`) that makes loading tsx fail in a built process (see no-tsx.cjs). */
export const NO_TSX_PRELOAD = path.join(__dirname, 'no-tsx.cjs');
