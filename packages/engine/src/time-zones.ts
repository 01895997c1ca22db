/*
 * Wall-clock time in a named zone (IANA, e.g. 'Europe/London'), read with Intl: a hotel writes its terms in its
 * own local time ("by 18:00 hotel time"), which is an instant only once the zone's offset on that day is known.
 * Roster timestamps carry their offset and need none of this (time.ts).
 */
import { MS_PER_DAY } from './time';

const MS_PER_MINUTE = 60_000;
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

/** Whether Intl knows the zone ('Europe/London', 'UTC'); an unknown name would make the conversions throw. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Epoch ms of the wall clock shown in the zone at `utcMs`, read as if it were UTC. */
function wallClockMs(timeZone: string, utcMs: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
}

/** Minutes the zone is ahead of UTC at the instant `utcMs`. */
export function zoneOffsetMinutes(timeZone: string, utcMs: number): number {
  const whole = Math.floor(utcMs / 1000) * 1000;
  return Math.round((wallClockMs(timeZone, whole) - whole) / MS_PER_MINUTE);
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The instant of a wall-clock time (`HH:MM`) on a local date in the zone, as epoch ms; NaN when the date or time
 * is unreadable. Every day has its own offset, so a deadline the day after a daylight-saving change keeps its
 * wall-clock time. The two times a change makes special are resolved as Temporal's 'compatible' does:
 * - a time the clocks skip (01:30 in London on the spring change) is read with the offset before the change,
 *   the instant the clocks show as one hour later (02:30 BST);
 * - a time that happens twice (01:30 in London on the autumn change) is the first of the two, the earlier
 *   instant, so a deadline read this way is never later than the hotel could mean.
 */
export function zonedInstant(localDate: string, localTime: string, timeZone: string): number {
  const t = HH_MM.exec(localTime);
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  if (!t || !d) return Number.NaN;
  const wall = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +t[1]!, +t[2]!);
  if (Number.isNaN(wall)) return Number.NaN;
  // Zones change offset at most once within a day either side; the offsets of a day before and after cover it.
  const before = zoneOffsetMinutes(timeZone, wall - MS_PER_DAY);
  const after = zoneOffsetMinutes(timeZone, wall + MS_PER_DAY);
  const fits = [...new Set([before, after])]
    .map((offset) => wall - offset * MS_PER_MINUTE)
    .filter((utc) => wallClockMs(timeZone, utc) === wall);
  if (fits.length > 0) return Math.min(...fits);
  return wall - before * MS_PER_MINUTE;
}

/** The local calendar date (`YYYY-MM-DD`) in the zone at the instant `utcMs`. */
export function localDateIn(timeZone: string, utcMs: number): string {
  return new Date(wallClockMs(timeZone, utcMs)).toISOString().slice(0, 10);
}
