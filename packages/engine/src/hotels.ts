import { prefers, type DiffContext } from './diff-context';
import { makeItem, type DiffItemClassification } from './items';
import { layoverKey } from './keys';
import { hotelBookingDate } from './booking-dates';
import { inWindow, instantOf, localDateOf, type DateWindow } from './time';
import type {
  DerivedActionItem,
  HotelBookingActual,
  HotelItemDetails,
  HotelStay,
  LayoverRef,
  LayoverRow,
} from './types';

function hotelKeyOf(b: HotelBookingActual): string | null {
  return b.employee_id === null || b.pairing_number === null || b.duty_period_num === null
    ? null
    : layoverKey(b.employee_id, b.pairing_number, b.duty_period_num);
}

function stayOf(s: HotelStay): HotelStay {
  return { station: s.station, checkin_time_local: s.checkin_time_local, checkout_time_local: s.checkout_time_local };
}

const span = (s: HotelStay) => `${s.checkin_time_local} - ${s.checkout_time_local}`;

/** How the roster's layover differs from the booked stay (instants compared: offsets may be written differently). */
function classifyStay(booked: HotelStay, wanted: HotelStay): DiffItemClassification {
  if (booked.station !== wanted.station) return 'LAYOVER_CITY_CHANGE';
  // Same text, same instants: skip parsing for the (usual) untouched stay.
  if (
    booked.checkin_time_local === wanted.checkin_time_local &&
    booked.checkout_time_local === wanted.checkout_time_local
  )
    return 'UNCHANGED';
  const sameCheckin = instantOf(booked.checkin_time_local) === instantOf(wanted.checkin_time_local);
  const oldOut = instantOf(booked.checkout_time_local);
  const newOut = instantOf(wanted.checkout_time_local);
  if (sameCheckin && newOut === oldOut) return 'UNCHANGED';
  if (sameCheckin && newOut > oldOut) return 'LAYOVER_EXTENDED';
  return 'LAYOVER_DATE_CHANGE';
}

/** Whether the roster's layover is the booked stay: same station, same check-in and check-out instants. */
export function sameStay(booked: HotelStay, wanted: HotelStay): boolean {
  return classifyStay(booked, wanted) === 'UNCHANGED';
}

function messageFor(classification: DiffItemClassification, booked: HotelStay, wanted: HotelStay): string {
  switch (classification) {
    case 'LAYOVER_CITY_CHANGE':
      return `Layover moved from ${booked.station} to ${wanted.station} (${span(wanted)})`;
    case 'LAYOVER_EXTENDED':
      return `Layover at ${wanted.station} extended: checkout ${booked.checkout_time_local} -> ${wanted.checkout_time_local}`;
    case 'LAYOVER_DATE_CHANGE':
      return `Layover at ${wanted.station} changed from ${span(booked)} to ${span(wanted)}`;
    default:
      return `Layover at ${wanted.station} (${span(wanted)}) unchanged`;
  }
}

function rowDetails(r: LayoverRow, previous?: HotelStay): HotelItemDetails {
  return {
    row_key: r.key,
    duty_period_num: r.duty_period_num,
    ...stayOf(r),
    traveller_email: r.traveller_email,
    name: r.name,
    rank: r.rank,
    home_base: r.home_base,
    ...(previous ? { previous } : {}),
  };
}

/** A row key's current layover and the booking the diff uses for it. */
interface HotelSlot {
  row: LayoverRow | null;
  booking: HotelBookingActual | null;
}

/**
 * HOTEL items: layovers (booking_required) against the hotel booking actuals, keyed
 * employee_id + pairing_number + duty_period_num. A key is reconciled only when its row and
 * its booking (whichever exist) are dated inside the window: both by their check-in (hotelBookingDate).
 */
export function diffLayovers(ctx: DiffContext, hotelBookings: readonly HotelBookingActual[]): DerivedActionItem[] {
  const { window, settings, processedMs } = ctx;
  // One map for rows and bookings: the diff is Map-bound at 120k layovers.
  const slots = new Map<string, HotelSlot>();
  for (const row of ctx.current.layovers) slots.set(row.key, { row, booking: null });
  for (const b of hotelBookings) {
    const key = hotelKeyOf(b);
    if (key === null) continue;
    const slot = slots.get(key);
    if (!slot) slots.set(key, { row: null, booking: b });
    else if (prefers(b, slot.booking)) slot.booking = b;
  }

  const items: DerivedActionItem[] = [];
  for (const [key, { row: r, booking: b }] of slots) {
    if (r) {
      if (!inWindow(localDateOf(r.checkin_time_local), window)) continue;
      const anchors = { employee_id: r.employee_id, pairing_number: r.pairing_number, duty_date: r.duty_date };
      if (!b) {
        items.push(
          makeItem(
            {
              classification: 'NEW_LAYOVER',
              type: 'HOTEL',
              rowKey: key,
              anchors,
              day1Row: null,
              day2Row: r.row,
              bookingId: null,
              eventMs: instantOf(r.checkin_time_local),
              message: `New layover at ${r.station} (${span(r)})`,
              details: rowDetails(r),
            },
            processedMs,
          ),
        );
        continue;
      }
      // Spec rule 10: a cancelled booking is never re-created, whatever changed.
      if (b.status === 'CANCELLED') continue;
      if (!inWindow(hotelBookingDate(b), window)) continue;
      const classification = classifyStay(b, r);
      if (classification === 'UNCHANGED' ? !settings.emit_unchanged : b.manual_override) continue;
      items.push(
        makeItem(
          {
            classification,
            type: 'HOTEL',
            rowKey: key,
            anchors,
            day1Row: null,
            day2Row: r.row,
            bookingId: b.booking_id,
            // The sooner of the booked and the wanted check-in is the deadline for the amend.
            eventMs: Math.min(instantOf(b.checkin_time_local), instantOf(r.checkin_time_local)),
            message: messageFor(classification, b, r),
            details: rowDetails(r, classification === 'UNCHANGED' ? undefined : stayOf(b)),
          },
          processedMs,
        ),
      );
    } else if (b) {
      // A live booking without a layover wanting it.
      if (b.status === 'CANCELLED' || b.manual_override || ctx.flagged.has(key)) continue;
      if (!inWindow(hotelBookingDate(b), window)) continue;
      // A stay that ended before the lookback cut-off is past: left alone.
      if (localDateOf(b.checkout_time_local) < ctx.cancellationCutoff) continue;
      items.push(
        makeItem(
          {
            classification: 'LAYOVER_CANCELLED',
            type: 'HOTEL',
            rowKey: key,
            anchors: {
              employee_id: b.employee_id!,
              pairing_number: b.pairing_number!,
              duty_date: b.duty_date ?? localDateOf(b.checkin_time_local),
            },
            day1Row: null,
            day2Row: null,
            bookingId: b.booking_id,
            eventMs: instantOf(b.checkin_time_local),
            message: `Layover at ${b.station} (${span(b)}) is no longer in the roster`,
            details: {
              row_key: key,
              duty_period_num: b.duty_period_num!,
              ...stayOf(b),
              traveller_email: b.traveller_email ?? null,
              name: null,
              rank: null,
              home_base: null,
            },
          },
          processedMs,
        ),
      );
    }
  }
  fillDay1Rows(items, ctx.previous.layovers, window);
  return items;
}

/**
 * day1_row of the (few) items, from the previous submission's layover rows. A previous row
 * dated outside the window was not reconciled, so an item does not refer to it.
 */
function fillDay1Rows(items: DerivedActionItem[], previous: readonly LayoverRef[], window: DateWindow): void {
  if (items.length === 0) return;
  const byKey = new Map(items.map((i) => [i.details.row_key, i]));
  for (const ref of previous) {
    const item = byKey.get(ref.key);
    if (item && inWindow(ref.date, window)) item.source_rows.day1_row = ref.row;
  }
}
