/**
 * A CSV cell as a spreadsheet should read it: a text it would run as a formula (starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return) is prefixed with a quote (CSV injection). Every CSV we write goes through it: the api's
 * exports and the rooming lists mailed to hotels, whose names come from the airline's roster.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- cells are scalar columns (numbers, booleans)
  const s = typeof v === 'string' ? v : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
