/**
 * Duffel gives flight times as local wall-clock times without offset (`2025-03-30T09:05:00`) plus each
 * airport's IANA `time_zone`; our product wants ISO 8601 with the offset in force at that instant.
 */

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
function offsetMinutes(timeZone: string, utcMs: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60000);
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

export interface ZonedTime {
  /** ISO 8601 with the zone's offset, e.g. `2025-03-30T09:05:00+02:00`. */
  iso: string;
  utcMs: number;
}

/** A local time in a zone as an instant; throws on a time that is not `YYYY-MM-DDTHH:MM[:SS]`. */
export function zoned(local: string, timeZone: string): ZonedTime {
  const m = LOCAL.exec(local);
  if (!m) throw new Error(`not a local date-time: ${local}`);
  const [, date, hh, mm, ss = '00'] = m;
  const wall = `${date}T${hh}:${mm}:${ss}`;
  const localMs = Date.parse(`${wall}Z`);
  // Two passes settle the offset on either side of a DST switch.
  const first = localMs - offsetMinutes(timeZone, localMs) * 60000;
  const utcMs = localMs - offsetMinutes(timeZone, first) * 60000;
  const offset = offsetMinutes(timeZone, utcMs);
  const abs = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  const pad = (n: number) => String(n).padStart(2, '0');
  return { iso: `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`, utcMs };
}
