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

/** Stable action-item key: one item per classification and row. */
export function itemKey(classification: string, rowKey: string): string {
  return `${classification}:${rowKey}`;
}

/** Stable audit-event key: one event per classification and flattened row. */
export function auditEventKey(classification: string, row: number): string {
  return `${classification}:${row}`;
}
