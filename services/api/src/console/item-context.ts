import type { ActionItem, BookingFlightBlock, BookingHotelBlock, Money } from '@crew/contracts';
import type { BookingRow } from '@crew/db';
import { html, type SafeHtml } from './html';
import {
  ACTION_LABEL,
  crewMember,
  flightName,
  instant,
  localTime,
  REVIEW_STATUS_LABEL,
  SUBTYPE_LABEL,
  timeLeft,
  urgencyBadge,
  type Urgency,
} from './review-view';

/*
 * The context a person needs before acting on an item: who travels, on which pairing, what the roster asks
 * for (the rostered flight, the layover) beside what is booked (the booked flight, the hotel), why the item
 * is in review, and every status the booking went through.
 */

export type HistoryEntry = { status: string; at: Date; reason: string | null; actor: string };

const money = (m: Money | null | undefined) => (m ? `${m.amount.toFixed(2)} ${m.currency}` : '—');

/** A definition list of the facts that are there (an absent fact is left out, not shown empty). */
function facts(rows: [string, string | number | null | undefined | SafeHtml][]): SafeHtml {
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== '');
  return html`<dl class="facts">
    ${shown.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v as string | number | SafeHtml}</dd>`,
    )}
  </dl>`;
}

/** The item's standing with the desk: status, deadline, who acted, who works it. */
export function statusSection(item: ActionItem, urgency: Urgency, now: Date): SafeHtml {
  const status = item.review_status ? (REVIEW_STATUS_LABEL[item.review_status] ?? item.review_status) : 'Not in review';
  const due =
    item.review_status === 'OPEN' && item.due_by
      ? html`${urgencyBadge(urgency)} ${timeLeft(item.due_by, now)} (due ${instant(item.due_by)})`
      : null;
  const acted = item.action_taken
    ? `${ACTION_LABEL[item.action_taken] ?? item.action_taken} by ${item.action_taken_by ?? 'unknown'} at ${instant(item.action_taken_at)}`
    : null;
  return html`<section aria-labelledby="status-h">
    <h2 id="status-h">Status</h2>
    ${facts([
      ['Review status', status],
      ['Time left', due],
      ['Action taken', acted],
      ['Reason given', item.action_reason],
      ['Assignee', item.assignee ?? 'Nobody'],
      ['Priority', item.priority],
      ['Disposition', item.disposition ?? 'Not handled yet'],
      ['Recommended action', item.recommended_action],
    ])}
  </section>`;
}

export function crewSection(item: ActionItem): SafeHtml {
  const d = item.details;
  return html`<section aria-labelledby="crew-h">
    <h2 id="crew-h">Crew member and pairing</h2>
    ${facts([
      ['Crew member', crewMember(item)],
      ['Employee id', item.anchors.employee_id],
      ['Name', d.name],
      ['Rank', d.rank],
      ['Home base', d.home_base],
      ['Traveller e-mail', item.anchors.traveller_email ?? d.traveller_email],
      ['Pairing', item.anchors.pairing_number],
      ['Duty date', item.anchors.duty_date],
      ['Duty period', d.duty_period_num],
      [
        'Item',
        `${item.type === 'FLIGHT' ? 'Deadhead' : 'Layover'} · ${item.classification} · ${SUBTYPE_LABEL[item.subtype] ?? item.subtype}`,
      ],
    ])}
  </section>`;
}

function bookedFlight(f: BookingFlightBlock | null | undefined): SafeHtml {
  if (!f?.flight_number) return html`<p>No flight is booked for this leg yet.</p>`;
  return facts([
    ['Flight', flightName(f.airline_code, f.flight_number)],
    ['Departs', localTime(f.dep_time)],
    ['Arrives', localTime(f.arr_time)],
    ['Cabin', f.cabin],
    ['Price', f.price ? money(f.price) : null],
    ['PNR', f.pnr],
    ['Ticket', f.ticket_id],
  ]);
}

function bookedHotel(h: BookingHotelBlock | null | undefined): SafeHtml {
  if (!h?.property_id) return html`<p>No hotel is booked for this layover yet.</p>`;
  return facts([
    ['Hotel', h.name ? `${h.name} (${h.property_id})` : h.property_id],
    ['Check-in date', h.check_in_date],
    ['Check-out date', h.check_out_date],
    ['Nightly rate', h.nightly_rate ? money(h.nightly_rate) : null],
    ['Contracted rate', h.contracted_rate ? money(h.contracted_rate) : null],
    ['Rate difference', h.rate_flag],
    ['Confirmation', h.confirmation_number],
  ]);
}

/** The roster's leg or stay beside the booking's: "Rostered flight" and "Booked flight" are never one block. */
export function tripSection(item: ActionItem, booking: BookingRow | undefined): SafeHtml {
  const d = item.details;
  if (item.type === 'FLIGHT') {
    return html`<section aria-labelledby="rostered-h">
        <h2 id="rostered-h">Rostered flight</h2>
        ${facts([
          ['Flight', d.flight_number ?? 'No flight number'],
          ['From', d.from_airport ?? d.flight?.from_airport],
          ['To', d.to_airport ?? d.flight?.to_airport],
          ['Departs', localTime(d.dep_time_local ?? d.flight?.depart_after)],
          ['Arrives', localTime(d.arr_time_local ?? d.flight?.arrive_by)],
          ['Leg', d.leg_sequence],
        ])}
      </section>
      <section aria-labelledby="booked-h">
        <h2 id="booked-h">Booked flight</h2>
        ${bookedFlight(booking?.flight)}
      </section>`;
  }
  return html`<section aria-labelledby="layover-h">
      <h2 id="layover-h">Layover</h2>
      ${facts([
        ['Station', d.station],
        ['Check-in', localTime(d.checkin_time_local)],
        ['Check-out', localTime(d.checkout_time_local)],
      ])}
    </section>
    <section aria-labelledby="booked-h">
      <h2 id="booked-h">Booked hotel</h2>
      ${bookedHotel(booking?.hotel)}
    </section>`;
}

export function whySection(item: ActionItem, booking: BookingRow | undefined): SafeHtml {
  const any = item.message || item.notes || booking?.review_reason || booking?.last_error;
  return html`<section aria-labelledby="why-h">
    <h2 id="why-h">Why it is in review</h2>
    ${
      any
        ? facts([
            ['Message', item.message],
            ['Notes', item.notes],
            ['Booking review reason', booking?.review_reason !== item.message ? booking?.review_reason : null],
            ['Last error', booking?.last_error],
          ])
        : html`<p>No reason was recorded.</p>`
    }
  </section>`;
}

export function historySection(booking: BookingRow | undefined, history: HistoryEntry[]): SafeHtml {
  if (!booking)
    return html`<section aria-labelledby="history-h">
      <h2 id="history-h">Booking history</h2>
      <p>The item has no booking yet.</p>
    </section>`;
  return html`<section aria-labelledby="history-h">
    <h2 id="history-h">Booking history</h2>
    <p>Booking <code>${booking.booking_id}</code>, now <strong>${booking.status}</strong>.</p>
    <table>
      <caption>
        Every status of the booking, oldest first
      </caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Status</th>
          <th scope="col">By</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        ${history.map(
          (h) =>
            html`<tr>
              <td>${instant(h.at.toISOString())}</td>
              <td>${h.status}</td>
              <td>${h.actor}</td>
              <td>${h.reason ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
