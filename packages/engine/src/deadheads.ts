import { prefers, type DiffContext } from './diff-context';
import { makeItem, type DiffItemClassification } from './items';
import { legKey } from './keys';
import { inWindow, instantOf } from './time';
import type { DeadheadRow, DerivedActionItem, FlightBookingActual, FlightItemDetails, FlightSegment } from './types';

function flightKeyOf(b: FlightBookingActual): string | null {
  return b.employee_id === null || b.pairing_number === null || b.duty_date === null || b.leg_sequence === null
    ? null
    : legKey(b.employee_id, b.pairing_number, b.duty_date, b.leg_sequence);
}

function segmentOf(r: FlightSegment): FlightSegment {
  return {
    from_airport: r.from_airport,
    to_airport: r.to_airport,
    flight_number: r.flight_number,
    dep_time_local: r.dep_time_local,
    arr_time_local: r.arr_time_local,
  };
}

const describe = (r: FlightSegment) =>
  `${r.from_airport}->${r.to_airport}${r.flight_number ? ` ${r.flight_number}` : ''} departing ${r.dep_time_local}`;

/** Route or flight changed: the old flight cannot be amended into the new one (spec rule 5). */
function routeChanged(a: DeadheadRow, b: DeadheadRow): boolean {
  return a.from_airport !== b.from_airport || a.to_airport !== b.to_airport || a.flight_number !== b.flight_number;
}

function timesChanged(a: DeadheadRow, b: DeadheadRow): boolean {
  if (a.dep_time_local === b.dep_time_local && a.arr_time_local === b.arr_time_local) return false;
  return (
    instantOf(a.dep_time_local) !== instantOf(b.dep_time_local) ||
    instantOf(a.arr_time_local) !== instantOf(b.arr_time_local)
  );
}

function rowDetails(r: DeadheadRow, previous?: FlightSegment): FlightItemDetails {
  return {
    row_key: r.key,
    duty_period_num: r.duty_period_num,
    leg_sequence: r.leg_sequence,
    // Exactly this leg's own route (spec rule 7), never derived from the home base.
    ...segmentOf(r),
    scheduled_dep_time_local: r.scheduled_dep_time_local,
    scheduled_arr_time_local: r.scheduled_arr_time_local,
    traveller_email: r.traveller_email,
    name: r.name,
    rank: r.rank,
    home_base: r.home_base,
    ...(previous ? { previous } : {}),
  };
}

/** A row key's previous and current DH leg and the booking the diff uses for it. */
interface FlightSlot {
  previous: DeadheadRow | null;
  current: DeadheadRow | null;
  booking: FlightBookingActual | null;
}

/**
 * FLIGHT items: DH legs against the DH legs of the previous submission (spec rule 4), keyed
 * employee_id + pairing_number + duty_date + leg_sequence. The bookings only gate the items
 * (manual_override, CANCELLED) and give them their booking_id. The key holds the duty_date,
 * so a key is inside or outside the window as a whole.
 */
export function diffDeadheads(ctx: DiffContext, flightBookings: readonly FlightBookingActual[]): DerivedActionItem[] {
  const { window, settings, processedMs } = ctx;
  const slots = new Map<string, FlightSlot>();
  for (const r of ctx.current.deadheads) {
    if (inWindow(r.duty_date, window)) slots.set(r.key, { previous: null, current: r, booking: null });
  }
  for (const p of ctx.previous.deadheads) {
    if (!inWindow(p.duty_date, window) || ctx.flagged.has(p.key)) continue;
    const slot = slots.get(p.key);
    if (slot) slot.previous = p;
    else slots.set(p.key, { previous: p, current: null, booking: null });
  }
  for (const b of flightBookings) {
    const key = flightKeyOf(b);
    // A booking matters only for a key that has a leg now or had one before.
    const slot = key === null ? undefined : slots.get(key);
    if (slot && prefers(b, slot.booking)) slot.booking = b;
  }
  const items: DerivedActionItem[] = [];
  const push = (
    classification: DiffItemClassification,
    rows: { day1: DeadheadRow | null; day2: DeadheadRow | null },
    b: FlightBookingActual | null,
    message: string,
    eventMs: number,
    details: FlightItemDetails,
  ) => {
    // Both rows share the key and its anchors.
    const r = (rows.day2 ?? rows.day1)!;
    items.push(
      makeItem(
        {
          classification,
          type: 'FLIGHT',
          rowKey: r.key,
          anchors: { employee_id: r.employee_id, pairing_number: r.pairing_number, duty_date: r.duty_date },
          day1Row: rows.day1 ? rows.day1.row : null,
          day2Row: rows.day2 ? rows.day2.row : null,
          bookingId: b ? b.booking_id : null,
          eventMs,
          message,
          details,
        },
        processedMs,
      ),
    );
  };
  // A cancellation is as urgent as the booked departure. A leg replaced under the same key
  // (route change) links both rows on both items.
  const cancel = (p: DeadheadRow, b: FlightBookingActual | null, replacement: DeadheadRow | null) =>
    push(
      'DEADHEAD_CANCELLED',
      { day1: p, day2: replacement },
      b,
      `Deadhead ${describe(p)} ${replacement ? `replaced by ${describe(replacement)}` : 'is no longer in the roster'}`,
      instantOf(b ? b.dep_time_local : p.dep_time_local),
      rowDetails(p),
    );
  const add = (r: DeadheadRow, p: DeadheadRow | null) =>
    push(
      'NEW_DEADHEAD',
      { day1: p, day2: r },
      null,
      `New deadhead ${describe(r)}`,
      instantOf(r.dep_time_local),
      rowDetails(r),
    );

  for (const { previous: p, current: r, booking: b } of slots.values()) {
    // Spec rule 10: a cancelled booking is never re-created, whatever changed.
    if (b?.status === 'CANCELLED') continue;
    const locked = b?.manual_override === true;
    if (!r) {
      if (p && !locked) cancel(p, b, null);
    } else if (!p) {
      // A live booking already covers a key the previous roster did not have: nothing to add.
      if (!b) add(r, null);
    } else if (routeChanged(p, r)) {
      if (!locked) {
        cancel(p, b, r);
        add(r, p);
      }
    } else if (timesChanged(p, r)) {
      if (!locked) {
        const message = `Deadhead ${r.from_airport}->${r.to_airport} moved from ${p.dep_time_local} - ${p.arr_time_local} to ${r.dep_time_local} - ${r.arr_time_local}`;
        push(
          'DEADHEAD_TIME_CHANGE',
          { day1: p, day2: r },
          b,
          message,
          Math.min(instantOf(p.dep_time_local), instantOf(r.dep_time_local)),
          rowDetails(r, segmentOf(p)),
        );
      }
    } else if (b && settings.emit_unchanged) {
      push(
        'UNCHANGED',
        { day1: p, day2: r },
        b,
        `Deadhead ${describe(r)} unchanged`,
        instantOf(r.dep_time_local),
        rowDetails(r),
      );
    }
  }
  return items;
}
