/** Time-zone arithmetic on IANA zones through Intl, so local times carry the right offset, DST included. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Minutes the zone is ahead of UTC at the instant `utcMs`. */
export function offsetMinutes(timeZone: string, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60000);
}

/** The UTC instant of a wall-clock time in a zone; `localMs` is that wall-clock time read as if it were UTC. */
export function localToUtc(timeZone: string, localMs: number): number {
  // Two passes settle the offset on either side of a DST switch.
  const first = localMs - offsetMinutes(timeZone, localMs) * 60000;
  return localMs - offsetMinutes(timeZone, first) * 60000;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** ISO 8601 with the zone's offset at that instant, e.g. `2025-07-01T09:05:00+01:00`. */
export function isoWithOffset(timeZone: string, utcMs: number): string {
  const offset = offsetMinutes(timeZone, utcMs);
  const local = new Date(utcMs + offset * 60000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** Milliseconds of midnight UTC for a `YYYY-MM-DD` date. */
export function dateMs(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateMs(to) - dateMs(from)) / 86400000);
}
