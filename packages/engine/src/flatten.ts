import {
  ACTIVITY_CODES,
  type CrewMember,
  type DutyPeriod,
  type Layover,
  type Leg,
  type Pairing,
  type ScheduleSubmission,
} from '@crew/contracts';
import { auditEventKey, layoverKey, legKey } from './keys';
import { crewSignature, pairingSignature } from './signature';
import { instantOf, localDateOf } from './time';
import type {
  AuditClassificationValue,
  DeadheadRow,
  DerivedAuditEvent,
  FlatRoster,
  LayoverRow,
  PairingSummary,
} from './types';

const KNOWN_ACTIVITY_CODES: ReadonlySet<string> = new Set(ACTIVITY_CODES);

/**
 * One leg or layover of a pairing, checked once; every crew member of the pairing reuses the
 * verdict. Its index in `Layout.entries` is also its row offset inside a crew member's block.
 */
interface Entry {
  duty: DutyPeriod;
  leg: Leg | null;
  layover: Layover | null;
  /** Spec rule 6: the leg's duty_date disagrees with its departure's local date. */
  dropped: boolean;
  /** Why the row is impossible data, or null. */
  flaw: string | null;
  /** Kept for the diff: a DH leg, or a layover with booking_required. */
  kept: boolean;
  /** The row key without the employee_id: identical within one pairing object. */
  sub: string;
}

/**
 * A pairing object laid out as rows: crew member i's entry j is row firstRow + i * entries.length + j.
 * Duplicate keys are found with this arithmetic instead of a map of every row key.
 */
interface Layout {
  firstRow: number;
  entries: Entry[];
  /** Each entry's sub, null for a dropped entry (it claims no key). */
  subs: (string | null)[];
  crewIds: string[];
  /** Index of the first entry with the same sub / of the first crew member with the same employee_id. */
  firstEntry: number[];
  firstCrew: number[];
}

function rowOf(layout: Layout, crewIndex: number, entryIndex: number): number {
  return layout.firstRow + crewIndex * layout.entries.length + entryIndex;
}

/** For each value, the index of its first occurrence (-1 for null). A scan for the usual short lists, a map for long ones. */
function firstIndices(values: (string | null)[]): number[] {
  const n = values.length;
  const first: number[] = new Array<number>(n);
  if (n <= 32) {
    for (let i = 0; i < n; i++) {
      const v = values[i];
      let f = -1;
      if (v !== null) for (f = 0; values[f] !== v; f++);
      first[i] = f;
    }
    return first;
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v === null) {
      first[i] = -1;
      continue;
    }
    const f = seen.get(v);
    if (f === undefined) seen.set(v, i);
    first[i] = f ?? i;
  }
  return first;
}

/** Why a start..end pair is impossible data (unreadable, or ending before it starts), or null. */
function orderFlaw(start: string, end: string, what: string, reversed: string): string | null {
  const a = instantOf(start);
  const b = instantOf(end);
  if (Number.isNaN(a) || Number.isNaN(b)) return `unreadable ${what} timestamp`;
  return b < a ? reversed : null;
}

function legEntry(duty: DutyPeriod, leg: Leg): Entry {
  const dropped =
    localDateOf(leg.dep_time_local) !== duty.duty_date ||
    (leg.expected_dep_time_local !== undefined && localDateOf(leg.expected_dep_time_local) !== duty.duty_date);
  let flaw: string | null;
  if (!KNOWN_ACTIVITY_CODES.has(leg.activity_code)) {
    flaw = `unknown activity_code ${String(leg.activity_code)}`;
  } else {
    flaw = orderFlaw(leg.dep_time_local, leg.arr_time_local, 'leg', 'arrival before departure');
    if (!flaw && (leg.expected_dep_time_local !== undefined || leg.expected_arr_time_local !== undefined)) {
      flaw = orderFlaw(
        leg.expected_dep_time_local ?? leg.dep_time_local,
        leg.expected_arr_time_local ?? leg.arr_time_local,
        'expected leg',
        'expected arrival before expected departure',
      );
    }
  }
  // A DH leg explicitly marked booking_required false needs no flight.
  const kept = leg.activity_code === 'DH' && leg.booking_required !== false;
  return { duty, leg, layover: null, dropped, flaw, kept, sub: `${duty.duty_date}|${leg.leg_sequence}` };
}

function layoverEntry(duty: DutyPeriod, layover: Layover): Entry {
  const flaw = orderFlaw(
    layover.checkin_time_local,
    layover.checkout_time_local,
    'layover',
    'checkout before check-in',
  );
  return {
    duty,
    leg: null,
    layover,
    dropped: false,
    flaw,
    kept: layover.booking_required,
    sub: `#${duty.duty_period_num}`,
  };
}

function layOut(p: Pairing, firstRow: number): Layout {
  const entries: Entry[] = [];
  for (const duty of p.duty_periods) {
    for (const leg of duty.legs) entries.push(legEntry(duty, leg));
    if (duty.layover) entries.push(layoverEntry(duty, duty.layover));
  }
  const subs = entries.map((e) => (e.dropped ? null : e.sub));
  const crewIds = p.crew.map((c) => c.employee_id);
  return { firstRow, entries, subs, crewIds, firstEntry: firstIndices(subs), firstCrew: firstIndices(crewIds) };
}

function keyOf(c: CrewMember, p: Pairing, e: Entry): string {
  return e.leg
    ? legKey(c.employee_id, p.pairing_number, e.duty.duty_date, e.leg.leg_sequence)
    : layoverKey(c.employee_id, p.pairing_number, e.duty.duty_period_num);
}

function describe(c: CrewMember, p: Pairing, e: Entry): string {
  return e.leg
    ? `Leg ${e.leg.leg_sequence} of pairing ${p.pairing_number} on ${e.duty.duty_date} for ${c.employee_id}`
    : `Layover of duty period ${e.duty.duty_period_num} of pairing ${p.pairing_number} for ${c.employee_id}`;
}

/** Collects rows and audit events in flattened order. */
export class Flattener {
  readonly deadheads: DeadheadRow[] = [];
  readonly layovers: LayoverRow[] = [];
  readonly pairings: PairingSummary[] = [];
  readonly flaggedKeys: string[] = [];
  readonly auditEvents: DerivedAuditEvent[] = [];
  readonly pairingContents = new Map<string, string>();
  /** Earlier objects of each pairing_number: a repeated pairing repeats keys. */
  private readonly layoutsOf = new Map<string, Layout[]>();
  rowCount = 0;

  private audit(
    classification: AuditClassificationValue,
    row: number,
    c: CrewMember,
    p: Pairing,
    e: Entry,
    message: string,
    details: Record<string, unknown>,
  ) {
    this.auditEvents.push({
      event_key: auditEventKey(classification, row),
      classification,
      message,
      anchors: { employee_id: c.employee_id, pairing_number: p.pairing_number, duty_date: e.duty.duty_date },
      source_rows: { day1_row: null, day2_row: row },
      details,
    });
  }

  /** Row of the first occurrence of crew member i's entry j's key, when it is not this row. */
  private firstOccurrence(earlier: Layout[] | undefined, layout: Layout, i: number, j: number): number | null {
    if (earlier) {
      // Rare: the pairing_number was sent before; its rows come first.
      const employeeId = layout.crewIds[i]!;
      const sub = layout.subs[j]!;
      for (const other of earlier) {
        const ci = other.crewIds.indexOf(employeeId);
        const ej = other.subs.indexOf(sub);
        if (ci >= 0 && ej >= 0) return rowOf(other, ci, ej);
      }
    }
    const ci = layout.firstCrew[i]!;
    const ej = layout.firstEntry[j]!;
    return ci < i || ej < j ? rowOf(layout, ci, ej) : null;
  }

  /** Adds a pairing object's rows, numbered from `firstRow` (the next row by default; a roster flattened element by element gives each its own). */
  addPairing(p: Pairing, firstRow = this.rowCount + 1): void {
    const layout = layOut(p, firstRow);
    const earlier = this.layoutsOf.get(p.pairing_number);
    const entries = layout.entries;
    p.crew.forEach((c, i) => {
      for (let j = 0; j < entries.length; j++) {
        const e = entries[j]!;
        if (e.dropped) continue;
        const row = rowOf(layout, i, j);
        const first = this.firstOccurrence(earlier, layout, i, j);
        if (first !== null) {
          const key = keyOf(c, p, e);
          this.audit('DUPLICATE_ROW', row, c, p, e, `${describe(c, p, e)} repeats row ${first}; the first row wins`, {
            row_key: key,
            first_row: first,
          });
        } else if (e.flaw) {
          const key = keyOf(c, p, e);
          this.flaggedKeys.push(key);
          this.audit('DATA_QUALITY_FLAG', row, c, p, e, `${describe(c, p, e)}: ${e.flaw}; row skipped`, {
            row_key: key,
            reason: e.flaw,
          });
        } else if (e.kept) {
          this.keep(c, p, e, row);
        }
      }
    });
    this.rowCount = firstRow - 1 + p.crew.length * entries.length;
    const signature = pairingSignature(p);
    const content = `${signature}~${crewSignature(p.crew)}`;
    const before = this.pairingContents.get(p.pairing_number);
    this.pairingContents.set(p.pairing_number, before === undefined ? content : `${before}|${content}`);

    if (earlier) {
      // A repeated pairing_number keeps its first summary, like every other duplicate.
      earlier.push(layout);
      return;
    }
    this.layoutsOf.set(p.pairing_number, [layout]);
    this.pairings.push({
      pairing_number: p.pairing_number,
      signature,
      crew: p.crew.map((c) => c.employee_id),
      first_date: localDateOf(p.check_in_local),
      last_date: localDateOf(p.check_out_local),
      first_row: layout.firstRow,
      last_row: this.rowCount,
    });
  }

  result(): FlatRoster {
    return {
      deadheads: this.deadheads,
      layovers: this.layovers,
      pairings: this.pairings,
      flaggedKeys: this.flaggedKeys,
      auditEvents: this.auditEvents,
      rowCount: this.rowCount,
      pairingContents: this.pairingContents,
    };
  }

  private keep(c: CrewMember, p: Pairing, e: Entry, row: number): void {
    const { duty, leg, layover } = e;
    // Each row is one object literal (the crew member, its position and its key first, in this order): no
    // intermediate object to spread, and one shape per kind of row; hundreds of thousands are made per roster.
    if (leg) {
      this.deadheads.push({
        employee_id: c.employee_id,
        traveller_email: c.traveller_email,
        name: c.name,
        rank: c.rank,
        home_base: c.home_base,
        row,
        key: keyOf(c, p, e),
        pairing_number: p.pairing_number,
        duty_period_num: duty.duty_period_num,
        duty_date: duty.duty_date,
        leg_sequence: leg.leg_sequence,
        from_airport: leg.from_airport,
        to_airport: leg.to_airport,
        flight_number: leg.flight_number ?? null,
        dep_time_local: leg.expected_dep_time_local ?? leg.dep_time_local,
        arr_time_local: leg.expected_arr_time_local ?? leg.arr_time_local,
        scheduled_dep_time_local: leg.dep_time_local,
        scheduled_arr_time_local: leg.arr_time_local,
      });
    } else if (layover) {
      this.layovers.push({
        employee_id: c.employee_id,
        traveller_email: c.traveller_email,
        name: c.name,
        rank: c.rank,
        home_base: c.home_base,
        row,
        key: keyOf(c, p, e),
        pairing_number: p.pairing_number,
        duty_period_num: duty.duty_period_num,
        duty_date: duty.duty_date,
        station: layover.station,
        checkin_time_local: layover.checkin_time_local,
        checkout_time_local: layover.checkout_time_local,
      });
    }
  }
}

/**
 * Flattens a submission into one row per crew member and leg or layover, numbered 1.. in this
 * order: pairings as submitted -> crew as listed -> duty periods as listed -> the duty period's
 * legs as listed, then its layover. Every leg and layover gets a row number (source_rows refer
 * to them) but only DH legs and booking_required layovers are kept for the diff. Per row, in
 * this order: a leg dated off its duty_date is dropped silently (spec rule 6); a key seen on an
 * earlier row is a DUPLICATE_ROW (the first row wins); impossible data is a DATA_QUALITY_FLAG
 * and the row is skipped.
 */
export function flattenRoster(submission: ScheduleSubmission): FlatRoster {
  const f = new Flattener();
  for (const p of submission.pairings) f.addPairing(p);
  return f.result();
}
