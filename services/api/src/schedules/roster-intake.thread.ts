/**
 * Runs in a worker thread: parses, validates and compresses a submitted roster, so that the api's
 * event loop never spends a second on a big airline's 75 MB of JSON (health checks and other
 * requests stay fast).
 */
import { promisify } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { gzip } from 'node:zlib';
import { checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import { transferable, type IntakeMessage, type IntakeRequest, type IntakeResult } from './roster-intake';

const gzipAsync = promisify(gzip);

/** A client with thousands of mistakes gets the first ones, not a megabyte of details. */
const MAX_ISSUES = 500;

type Checked = Exclude<IntakeResult, { kind: 'ok' }> | { kind: 'ok'; summary: Extract<IntakeResult, { kind: 'ok' }>['summary'] };

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
    summary: { external_ref: s.external_ref ?? null, as_of: s.as_of ?? null, schedule_start_date: s.schedule_start_date, schedule_end_date: s.schedule_end_date, pairing_count: s.pairings.length },
  };
}

parentPort!.on('message', async ({ id, bytes }: IntakeRequest) => {
  const post = (result: IntakeResult, transfer: ArrayBuffer[] = []) => parentPort!.postMessage({ id, result } satisfies IntakeMessage, transfer);
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Compression runs in libuv's pool while this thread parses. An output chunk as big as the input
  // makes it one pool job: with the default 16 KB chunks every step needs this (busy) thread's loop.
  const compressing = gzipAsync(raw, { level: 1, chunkSize: Math.max(64 * 1024, raw.byteLength) });
  compressing.catch(() => undefined);
  const checked = checkRoster(raw);
  if (checked.kind !== 'ok') return post(checked);
  try {
    const { view, transfer } = transferable(await compressing);
    post({ ...checked, compressed: view }, transfer);
  } catch (err) {
    // Out of memory in zlib, say: the caller answers 500 and the roster is not stored.
    parentPort!.postMessage({ id, error: String(err) } satisfies IntakeMessage);
  }
});

// Compile the schema now (checkBody compiles on first use), then tell RosterIntake.start() we are ready.
checkBody(ScheduleSubmission, null);
parentPort!.postMessage({ ready: true } satisfies IntakeMessage);
