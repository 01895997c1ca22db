import type { ActionSubtype, ActionType, Classification } from '@crew/contracts';
import { itemKey } from './keys';
import type { Decision } from './policy';
import { priorityFor } from './priority';
import { isoInstant } from './time';
import type { DerivedActionItem, FlightItemDetails, HotelItemDetails, RowAnchors } from './types';

/** The classifications that become action items on the diff path. */
export type DiffItemClassification = Extract<
  Classification,
  | 'NEW_LAYOVER'
  | 'LAYOVER_DATE_CHANGE'
  | 'LAYOVER_CITY_CHANGE'
  | 'LAYOVER_EXTENDED'
  | 'LAYOVER_CANCELLED'
  | 'NEW_DEADHEAD'
  | 'DEADHEAD_TIME_CHANGE'
  | 'DEADHEAD_CANCELLED'
  | 'SWAP_OUT'
  | 'SWAP_IN'
  | 'UNCHANGED'
>;

/**
 * Subtype per classification. UNCHANGED is a MODIFY that changes nothing: it is linked to the
 * existing booking (like a MODIFY) and neither creates nor cancels anything.
 */
export const SUBTYPE_OF: Readonly<Record<DiffItemClassification, ActionSubtype>> = {
  NEW_LAYOVER: 'NEW_BOOKING',
  NEW_DEADHEAD: 'NEW_BOOKING',
  SWAP_IN: 'NEW_BOOKING',
  LAYOVER_DATE_CHANGE: 'MODIFY',
  LAYOVER_CITY_CHANGE: 'MODIFY',
  LAYOVER_EXTENDED: 'MODIFY',
  DEADHEAD_TIME_CHANGE: 'MODIFY',
  UNCHANGED: 'MODIFY',
  LAYOVER_CANCELLED: 'CANCEL',
  DEADHEAD_CANCELLED: 'CANCEL',
  SWAP_OUT: 'CANCEL',
};

export interface ItemDraft {
  classification: DiffItemClassification;
  type: ActionType;
  rowKey: string;
  anchors: RowAnchors;
  day1Row: number | null;
  day2Row: number | null;
  bookingId: string | null;
  /** Epoch ms of the event that sets the priority. */
  eventMs: number;
  message: string;
  details: HotelItemDetails | FlightItemDetails;
}

export function makeItem(d: ItemDraft, processedMs: number): DerivedActionItem {
  return {
    item_key: itemKey(d.classification, d.rowKey),
    source: 'SCHEDULE_DIFF',
    type: d.type,
    subtype: SUBTYPE_OF[d.classification],
    classification: d.classification,
    priority: priorityFor(d.eventMs, processedMs),
    anchors: d.anchors,
    source_rows: { day1_row: d.day1Row, day2_row: d.day2Row },
    booking_id: d.bookingId,
    event_at: Number.isNaN(d.eventMs) ? isoInstant(processedMs) : isoInstant(d.eventMs),
    message: d.message,
    details: d.details,
  };
}

/** Re-labels an item (swap detection), keeping the key and subtype in step with the classification. */
export function reclassify(item: DerivedActionItem, classification: DiffItemClassification, message: string): void {
  item.classification = classification;
  item.subtype = SUBTYPE_OF[classification];
  item.item_key = itemKey(classification, item.details.row_key);
  item.message = message;
}

/**
 * Deterministic output order, independent of the order of pairings in the submission:
 * pairing_number, employee_id, duty_date, type, then item_key (unique per item).
 */
export function sortItems(items: DerivedActionItem[]): DerivedActionItem[] {
  const keyed = items.map((item) => ({
    item,
    sortKey: `${item.anchors.pairing_number}\u0000${item.anchors.employee_id}\u0000${item.anchors.duty_date}\u0000${item.type}\u0000${item.item_key}`,
  }));
  keyed.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  return keyed.map((k) => k.item);
}

/** The message an action item is written with: the reason a person must act, else the diff's own message. */
export function itemMessage(decision: Pick<Decision, 'reason'>, item: Pick<DerivedActionItem, 'message'>): string {
  return decision.reason ?? item.message;
}

/** The route and date of a flight search pre-filled from an action item (GET /crew/flight-options?action_id=). */
export interface ItemFlightSearch {
  from_airport: string;
  to_airport: string;
  /** The item's duty date. */
  date: string;
}

/**
 * What an action item pre-fills in a flight search: a FLIGHT item's airports and its duty date — a roster
 * deadhead's leg, or the flight block of an injected or requested one (its depart_date first). Null for a HOTEL
 * item, or a flight item without both airports and a date (details and anchors are JSON as stored, so each
 * field is checked).
 */
export function flightSearchOfItem(item: {
  type: ActionType;
  details: unknown;
  anchors: unknown;
}): ItemFlightSearch | null {
  type Route = { from_airport?: string; to_airport?: string; depart_date?: string };
  const details = item.details as (Route & { flight?: Route | null }) | null | undefined;
  const d = details?.flight ?? details;
  const date = d?.depart_date || (item.anchors as { duty_date?: string } | null | undefined)?.duty_date;
  return item.type === 'FLIGHT' && d?.from_airport && d.to_airport && date
    ? { from_airport: d.from_airport, to_airport: d.to_airport, date }
    : null;
}
