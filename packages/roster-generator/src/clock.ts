/** Local-time arithmetic: instants are epoch ms, a station's local time is instant + its offset. */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** Midnight of a local date at a station, as an instant. */
export function localMidnight(date: string, offsetMinutes: number): number {
  return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) - offsetMinutes * MINUTE;
}

function offsetText(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** '2026-12-01T23:30:00+02:00' for an instant at a station. */
export function formatLocal(instant: number, offsetMinutes: number): string {
  return new Date(instant + offsetMinutes * MINUTE).toISOString().slice(0, 19) + offsetText(offsetMinutes);
}

/** The local date of an instant at a station. */
export function localDate(instant: number, offsetMinutes: number): string {
  return new Date(instant + offsetMinutes * MINUTE).toISOString().slice(0, 10);
}

export function shiftDate(date: string, days: number): string {
  return new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) + days * DAY)
    .toISOString()
    .slice(0, 10);
}

/** Whole days from `a` to `b` (dates). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
}

/** Shifts a local timestamp by whole minutes, keeping its offset. */
export function shiftLocal(timestamp: string, minutes: number): string {
  const offset = timestamp.slice(19);
  const sign = offset[0] === '-' ? -1 : 1;
  const offsetMinutes = sign * (+offset.slice(1, 3) * 60 + +offset.slice(4, 6));
  return formatLocal(Date.parse(timestamp) + minutes * MINUTE, offsetMinutes);
}
