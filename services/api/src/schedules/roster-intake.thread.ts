/**
 * Runs in a worker thread: parses and validates a submitted roster, so that the api's event
 * loop never spends a second on a big airline's 75 MB of JSON (health checks and other requests stay fast).
 */
import { parentPort } from 'node:worker_threads';
import { checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import type { IntakeRequest, IntakeResult } from './roster-intake';

/** A client with thousands of mistakes gets the first ones, not a megabyte of details. */
const MAX_ISSUES = 500;

parentPort!.on('message', ({ id, bytes }: IntakeRequest) => {
  const post = (result: IntakeResult, transfer: ArrayBuffer[] = []) => parentPort!.postMessage({ id, result }, transfer);
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let data: unknown;
  try {
    data = JSON.parse(raw.toString('utf8'));
  } catch {
    return post({ kind: 'malformed' });
  }
  const checked = checkBody(ScheduleSubmission, data);
  if (!checked.ok) return post({ kind: 'invalid', issues: checked.issues.slice(0, MAX_ISSUES) });
  const cross = scheduleSubmissionIssues(checked.value);
  if (cross.length) return post({ kind: 'invalid', issues: cross });
  const s = checked.value;
  post({
    kind: 'ok',
    summary: { external_ref: s.external_ref ?? null, as_of: s.as_of ?? null, schedule_start_date: s.schedule_start_date, schedule_end_date: s.schedule_end_date, pairing_count: s.pairings.length },
  });
});
