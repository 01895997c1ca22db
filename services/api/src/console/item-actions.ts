import type { Response } from 'express';
import type { ActionItem, FlightOption, Money } from '@crew/contracts';
import type { BookingRow } from '@crew/db';
import { CONSOLE_BASE, type ConsoleUser } from './context';
import { html, type SafeHtml } from './html';
import { consoleForm } from './layout';
import { flightName, localTime } from './review-view';

/*
 * The item's available actions as forms, one section each; every form posts to the item's actions path
 * with its `action` (and the anti-forgery field). A VIEWER gets none of them. Which actions there are is the
 * API's answer (available_actions): the console adds none.
 */

/** Live flight options of a deadhead, or why there are none to show. */
export type OptionsAnswer = { options: FlightOption[] } | { problem: string };
/** A hotel of the airline's configuration at the layover's station. */
export interface StationHotel {
  property_id: string;
  name: string | null;
}

export interface ActionsInput {
  item: ActionItem;
  booking: BookingRow | undefined;
  user: ConsoleUser;
  flightOptions?: OptionsAnswer;
  hotels?: StationHotel[];
}

const money = (m: Money | null | undefined) => (m ? `${m.amount.toFixed(2)} ${m.currency}` : '—');

export const actionsPath = (actionId: string) => `${CONSOLE_BASE}/items/${actionId}/actions`;

function form(res: Response, item: ActionItem, action: string, body: SafeHtml, inline = false): SafeHtml {
  return consoleForm(
    res,
    actionsPath(item.action_id),
    html`<input type="hidden" name="action" value="${action}" />${body}`,
    inline ? html`class="inline"` : html``,
  );
}

function section(id: string, title: string, body: SafeHtml): SafeHtml {
  return html`<section class="act" aria-labelledby="${id}">
    <h3 id="${id}">${title}</h3>
    ${body}
  </section>`;
}

function flightOptionsSection(res: Response, input: ActionsInput): SafeHtml {
  const answer = input.flightOptions;
  if (!answer) return html``;
  if ('problem' in answer)
    return section('act-book-flight', 'Book a flight', html`<p role="status">${answer.problem}</p>`);
  const rows = answer.options.map((o, i) => {
    const flight = flightName(o.airline_code, o.flight_number);
    return html`<tr>
      <th scope="row" id="opt-${i}">${flight}</th>
      <td>${localTime(o.dep_time)}</td>
      <td>${localTime(o.arr_time)}</td>
      <td>${o.cabin}</td>
      <td class="num">${money(o.price)}</td>
      <td>
        ${form(
          res,
          input.item,
          'BOOK_FLIGHT_OPTION',
          html`<input type="hidden" name="flight_option_id" value="${o.flight_option_id}" />
            <button type="submit" aria-describedby="opt-${i}">Book</button>`,
          true,
        )}
      </td>
    </tr>`;
  });
  return section(
    'act-book-flight',
    'Book a flight',
    html`<table>
      <caption>
        Live flight options, in the order the engine would try them
      </caption>
      <thead>
        <tr>
          <th scope="col">Flight</th>
          <th scope="col">Departs</th>
          <th scope="col">Arrives</th>
          <th scope="col">Cabin</th>
          <th scope="col" class="num">Price</th>
          <th scope="col"><span class="sr-only">Book</span></th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`,
  );
}

function hotelSection(res: Response, input: ActionsInput): SafeHtml {
  const hotels = input.hotels ?? [];
  const item = input.item;
  const forms = hotels.map((h) =>
    form(
      res,
      item,
      'BOOK_HOTEL',
      html`<p>${h.name ? `${h.name} (${h.property_id})` : h.property_id}</p>
        <input type="hidden" name="property_id" value="${h.property_id}" />
        <button type="submit">Book at the contracted hotel</button>`,
    ),
  );
  const other = form(
    res,
    item,
    'BOOK_HOTEL',
    html`<label for="act-property">Property id of another hotel</label>
      <input id="act-property" name="property_id" type="text" maxlength="64" required autocomplete="off" />
      <button type="submit">Book this hotel</button>`,
  );
  return section(
    'act-book-hotel',
    'Book a hotel',
    html`${hotels.length ? forms : html`<p>The airline has no hotel configured at this station.</p>`} ${other}`,
  );
}

function heldPrice(booking: BookingRow | undefined): string | null {
  const h = booking?.hotel;
  if (h?.total_price || h?.nightly_rate)
    return `${money(h.nightly_rate)} a night${h.contracted_rate ? ` (contracted ${money(h.contracted_rate)})` : ''}`;
  return booking?.flight?.price ? money(booking.flight.price) : null;
}

/** The forms of every available action, in the order a person would consider them. */
export function actionForms(res: Response, input: ActionsInput): SafeHtml {
  const { item, user } = input;
  const can = new Set(item.available_actions);
  const parts: SafeHtml[] = [];
  if (can.has('BOOK_FLIGHT_OPTION')) parts.push(flightOptionsSection(res, input));
  // The page's search found none, so the engine offered no flight to book: say why it is missing.
  else if (input.flightOptions && 'options' in input.flightOptions && input.flightOptions.options.length === 0)
    parts.push(
      html`<p role="status">No live flight options were found for this leg, so booking a flight is not offered.</p>`,
    );
  if (can.has('BOOK_HOTEL')) parts.push(hotelSection(res, input));
  if (can.has('ACCEPT_PRICE')) {
    const price = heldPrice(input.booking);
    parts.push(
      section(
        'act-accept-price',
        'Accept the price',
        form(
          res,
          item,
          'ACCEPT_PRICE',
          html`<p>Keep the reservation at the supplier’s price${price ? html`: ${price}` : ''}.</p>
            <button type="submit">Accept price</button>`,
        ),
      ),
    );
  }
  if (can.has('ACCEPT_CHANGE')) {
    const why = input.booking?.review_reason;
    parts.push(
      section(
        'act-accept-change',
        'Accept the airline’s change',
        form(
          res,
          item,
          'ACCEPT_CHANGE',
          html`<p>Take the flight as the airline changed it${why ? html` (${why})` : ''}.</p>
            <button type="submit">Accept the airline’s change</button>`,
        ),
      ),
    );
  }
  if (can.has('RETRY'))
    parts.push(
      section(
        'act-retry',
        'Retry',
        form(
          res,
          item,
          'RETRY',
          html`<p>Run the failed booking task again.</p>
            <button type="submit">Retry</button>`,
        ),
      ),
    );
  if (can.has('RECORD_PNR'))
    parts.push(
      section(
        'act-record-pnr',
        'Record a seat booked in the airline’s own system',
        form(
          res,
          item,
          'RECORD_PNR',
          html`<label for="act-pnr">PNR</label>
            <span class="hint" id="act-pnr-hint">The record locator: 5 to 8 letters or digits.</span>
            <input
              id="act-pnr"
              name="pnr"
              type="text"
              required
              pattern="[A-Za-z0-9]{5,8}"
              maxlength="8"
              aria-describedby="act-pnr-hint"
              autocomplete="off"
            />
            <label for="act-ticket">Ticket id</label>
            <input id="act-ticket" name="ticket_id" type="text" required maxlength="64" autocomplete="off" />
            <button type="submit">Record PNR</button>`,
        ),
      ),
    );
  if (can.has('CANCEL_BOOKING'))
    parts.push(
      section(
        'act-cancel',
        'Cancel the booking',
        form(
          res,
          item,
          'CANCEL_BOOKING',
          html`<label for="act-cancel-reason">Reason for cancelling</label>
            <textarea id="act-cancel-reason" name="reason" rows="2" maxlength="1000"></textarea>
            <button type="submit">Cancel booking</button>`,
        ),
      ),
    );
  if (can.has('DISMISS'))
    parts.push(
      section(
        'act-dismiss',
        'Dismiss',
        form(
          res,
          item,
          'DISMISS',
          html`<p>Nothing more is to be done with this item; it leaves the queue as it is.</p>
            <label for="act-dismiss-reason">Reason</label>
            <textarea id="act-dismiss-reason" name="reason" rows="2" maxlength="1000" required></textarea>
            <button type="submit">Dismiss</button>`,
        ),
      ),
    );
  if (can.has('ASSIGN'))
    parts.push(
      section(
        'act-assign',
        'Assign',
        html`${
          item.assignee === user.email
            ? html`<p>The item is assigned to you.</p>`
            : form(
                res,
                item,
                'ASSIGN',
                html`<input type="hidden" name="assignee" value="${user.email}" />
                  <button type="submit">Assign to me</button>`,
              )
        }
        ${form(
          res,
          item,
          'ASSIGN',
          html`<label for="act-assignee">Assign to (e-mail)</label>
            <input id="act-assignee" name="assignee" type="email" required maxlength="254" autocomplete="off" />
            <button type="submit">Assign</button>`,
        )}`,
      ),
    );
  if (parts.length === 0) return html`<p>No action can be taken on this item now.</p>`;
  return html`${parts}`;
}
