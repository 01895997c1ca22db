import type { ActionItem } from '@crew/contracts';
import { html, type SafeHtml } from './html';

/*
 * How the console words an action item: what it is about, how much time is left, and each action's name.
 * Time is never shown by colour alone: every colour comes with its words.
 */

export type Urgency = 'overdue' | 'soon' | 'later' | 'none' | 'closed';

const URGENCY_LABEL: Record<Urgency, string> = {
  overdue: 'Overdue',
  soon: 'Due soon',
  later: 'Later',
  none: 'No deadline',
  closed: 'Not open',
};

/** Where the item stands against its due_by: overdue, due within `dueSoonMinutes`, later, or none. */
export function urgencyOf(item: Pick<ActionItem, 'due_by' | 'review_status'>, now: Date, dueSoonMinutes: number) {
  if (item.review_status !== 'OPEN') return 'closed' as const;
  if (!item.due_by) return 'none' as const;
  const left = Date.parse(item.due_by) - now.getTime();
  if (left < 0) return 'overdue' as const;
  return left <= dueSoonMinutes * 60_000 ? ('soon' as const) : ('later' as const);
}

function duration(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return `${m} min`;
}

/** "in 2 h 5 min" or "15 min overdue". */
export function timeLeft(dueBy: string, now: Date): string {
  const left = Date.parse(dueBy) - now.getTime();
  return left < 0 ? `${duration(left)} overdue` : `in ${duration(left)}`;
}

/** An instant as people at a travel desk read it: "2027-03-10 05:00 UTC". */
export function instant(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A roster's local time as written ("2027-03-10 15:00 (-05:00)"). */
export function localTime(value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(value);
  return m ? `${m[1]} ${m[2]}${m[3] ? ` (${m[3] === 'Z' ? 'UTC' : m[3]})` : ''}` : value;
}

/** The urgency as a badge: colour and words. */
export function urgencyBadge(u: Urgency): SafeHtml {
  return html`<span class="badge ${u}">${URGENCY_LABEL[u]}</span>`;
}

/** What the item is about, in a few words: "Deadhead LHR → JFK" or "Layover at JFK". */
export function itemSubject(item: Pick<ActionItem, 'type' | 'details'>): string {
  const d = item.details;
  if (item.type === 'FLIGHT') {
    const from = d.from_airport ?? d.flight?.from_airport;
    const to = d.to_airport ?? d.flight?.to_airport;
    return from && to ? `Deadhead ${from} → ${to}` : 'Deadhead';
  }
  return d.station ? `Layover at ${d.station}` : 'Layover';
}

export const SUBTYPE_LABEL: Record<string, string> = { NEW_BOOKING: 'new booking', MODIFY: 'change', CANCEL: 'cancel' };

/** The crew member as the roster names them: "E1 Ada Lovelace" (or the traveller's e-mail of an injected item). */
export function crewMember(item: Pick<ActionItem, 'anchors' | 'details'>): string {
  const id = item.anchors.employee_id;
  const name = item.details.name;
  const who = [id, name].filter(Boolean).join(' ');
  return who || item.anchors.traveller_email || item.details.traveller_email || '—';
}

export const ACTION_LABEL: Record<string, string> = {
  BOOK_FLIGHT_OPTION: 'Book a flight option',
  BOOK_HOTEL: 'Book at the contracted hotel',
  ACCEPT_PRICE: 'Accept price',
  ACCEPT_CHANGE: 'Accept the airline’s change',
  RECORD_PNR: 'Record a PNR',
  RETRY: 'Retry',
  CANCEL_BOOKING: 'Cancel booking',
  DISMISS: 'Dismiss',
  ASSIGN: 'Assign',
};

export const REVIEW_STATUS_LABEL: Record<string, string> = {
  OPEN: 'Open',
  RESOLVED: 'Resolved',
  DISMISSED: 'Dismissed',
};

/** A flight as a person reads it ("BA117"): the carrier code once, whether or not the number carries it. */
export function flightName(airlineCode: string | null | undefined, flightNumber: string): string {
  return airlineCode && !flightNumber.toUpperCase().startsWith(airlineCode.toUpperCase())
    ? `${airlineCode}${flightNumber}`
    : flightNumber;
}
