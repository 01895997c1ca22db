/*
 * Row keys shared with the callers (the DB layer stores and looks bookings up by them).
 * The airline's free-text ids are escaped so that '|' inside an id cannot make two
 * different rows share a key. Keys are built with join(), which yields a flat string: a
 * template literal yields a rope that V8 must flatten again before every first Map lookup,
 * and the diff does hundreds of thousands of them.
 */

function esc(id: string): string {
  return id.includes('|') || id.includes('\\') ? id.replace(/\\/g, '\\\\').replace(/\|/g, '\\|') : id;
}

/** Deadhead leg identity (spec rule 4): employee_id + pairing_number + duty_date + leg_sequence. */
export function legKey(employeeId: string, pairingNumber: string, dutyDate: string, legSequence: number): string {
  return [esc(employeeId), esc(pairingNumber), dutyDate, legSequence].join('|');
}

/** Layover identity (DESIGN 6): employee_id + pairing_number + duty_period_num. */
export function layoverKey(employeeId: string, pairingNumber: string, dutyPeriodNum: number): string {
  return [esc(employeeId), esc(pairingNumber), dutyPeriodNum].join('|');
}

/** The pairing_number a layover or leg key holds (its second field, unescaped). */
export function pairingOfKey(key: string): string {
  // Ids without '|' or '\\' (nearly all): the text between the first two separators.
  if (!key.includes('\\')) {
    const start = key.indexOf('|') + 1;
    return key.slice(start, key.indexOf('|', start));
  }
  let field = 0;
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!;
    if (c === '\\') {
      if (field === 1) out += key[i + 1] ?? '';
      i++;
    } else if (c === '|') {
      if (++field > 1) break;
    } else if (field === 1) out += c;
  }
  return out;
}

/** Stable action-item key: one item per classification and row. */
export function itemKey(classification: string, rowKey: string): string {
  return `${classification}:${rowKey}`;
}

/** Stable audit-event key: one event per classification and flattened row. */
export function auditEventKey(classification: string, row: number): string {
  return `${classification}:${row}`;
}

/** The steps of a booking task that carry an idempotency reference to the supplier. */
export type SupplierStep = 'book' | 'amend' | 'cancel';

/**
 * Every idempotency reference sent to a supplier. A first booking is `bk-<booking>`, its cancellation
 * `cx-<booking>`; a booking or cancellation within a later task (an amendment, a rebook, a booking that replaces
 * an earlier order: supplier-order.ts bookTaskReference) adds that task's identity (`bk-<booking>-<task>`,
 * `cx-<booking>-<task>`); an amendment is `am-<task>`. A re-delivered task
 * sends the same reference, so the supplier answers with what it already did. The forms never change:
 * references already at the supplier must keep matching.
 */
export function supplierReference(step: SupplierStep, bookingId: string, task?: string | null): string {
  if (step === 'amend') return `am-${task ?? bookingId}`;
  const prefix = step === 'book' ? 'bk' : 'cx';
  return task ? `${prefix}-${bookingId}-${task}` : `${prefix}-${bookingId}`;
}

/** A task's identity: the ref its job names, else its action item, else the booking itself. */
export function taskIdentity(job: { ref?: string | null; action_id?: string | null }, bookingId: string): string {
  return job.ref ?? job.action_id ?? bookingId;
}

/** Names a supplier task (a booking's task_ref): `<OPERATION>-<id>`. Its operation is stored beside it, never read back from it. */
export function taskRefOf(operation: 'BOOK' | 'AMEND' | 'CANCEL', id: string): string {
  return `${operation}-${id}`;
}
