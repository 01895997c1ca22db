/** The roster benchmark's options (environment; listed in bench/roster.ts) and fixed inputs. */
import { ROSTER_SIZES, type RosterSize } from '@crew/roster-generator';
import { machine } from '../lib/machine';

function sizeOf(name: string, fallback: RosterSize): RosterSize {
  const v = (process.env[name] || fallback).toUpperCase();
  if (!(v in ROSTER_SIZES))
    throw new Error(`${name} must be one of ${Object.keys(ROSTER_SIZES).join(', ')}, got "${v}"`);
  return v as RosterSize;
}

export const SIZE = sizeOf('BENCH_SIZE', 'L');
export const BOOKING_SIZE = sizeOf('BENCH_BOOKING_SIZE', 'M');
export const SKIP_BOOKING = process.env.BENCH_SKIP_BOOKING === '1';
/** Diagnostics: route the worker's supplier calls through a proxy that records 4xx answers (slows booking down). */
export const RECORD_REFUSALS = process.env.BENCH_RECORD_REFUSALS === '1';
export const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S || 1200) * 1000;
export const WRITE_DOCS = process.env.BENCH_DOCS !== '0';
export const WEBHOOKS = process.env.BENCH_WEBHOOKS !== '0';
/** Also measure the earlier floor (parse + COPY + BullMQ addBulk/drain), for reference. */
export const OLD_FLOOR = process.env.BENCH_OLD_FLOOR === '1';
export const START_DATE = '2027-03-01';
export const SEED = 1;
export const GIB_KB = 1024 * 1024;

export const MACHINE = machine();
