/**
 * A deadhead at the airline's suppliers: its own reservation system for a leg on its own metal, else the
 * first supplier in its order that has a fitting offer (the next on no offers or a refusal, never after an
 * unknown outcome). Every order carries a reference derived from the booking; a supplier without an
 * idempotency key (Duffel) is asked for that reference before any second attempt orders again.
 */
import type { Money } from '@crew/contracts';
import type { BookingRow } from '@crew/db';
import {
  awaitsOwnSeatAnswer,
  BOOK_IN_OWN_SYSTEM,
  chooseFlightOption,
  deadheadWindow,
  fareConditionsFit,
  movedFareFlag,
  flightRoute,
  nextSupplierApplies,
  latestOrderReference,
  orderingCeiling,
  orderMayExist,
  rebookAfterCancel,
  replacesEarlierOrder,
  retailOffers,
  supplierReference,
  ticketingOutcome,
  type AirlineBookingContext,
} from '@crew/engine';
import {
  flightSupplierNamed,
  isSupplierError,
  offerInOrder,
  type AirlineSupplierSet,
  type Cabin,
  type FlightOrder,
  type FlightSupplier,
  type FlightTraveller,
  type OrderedSupplier,
  type SupplierRegistry,
} from '@crew/suppliers';
import { SupplierPaced, SUPERSEDED, type RecordBeforeOrder, type SupplierLanePauses, type Outcome } from './outcome';
import { bookOwnSeat, cancelOwnSeat } from './own-seat.booking';

export interface FlightBookingDeps {
  registry: SupplierRegistry;
  /** Told when a supplier account of an airline has too little balance to pay (an alert to a person). */
  onInsufficientBalance?: (airlineId: string, supplier: string) => void;
  /** Airlines' supplier lanes paused by a 429 of their own token. */
  pauses: SupplierLanePauses;
  /** The api's address as the airline's own system reaches it (its callbacks). */
  callbackBase: string;
  /** Orders a supplier announced (Duffel's order.created) that may be this reference's, since an instant. */
  sightedOrders?: (airlineId: string, supplier: string, reference: string, since: Date) => Promise<string[]>;
}

/** What the processor knows of this attempt: a second start may follow an order whose answer was lost. */
export interface AttemptFacts {
  attemptsStarted: number;
}

interface FlightBlock {
  flight_option_id?: string;
  supplier?: string;
  supplier_ref?: string;
  constraints?: { depart_after?: string | null; arrive_by?: string | null; cabin_class?: string | null };
}

export async function bookDeadhead(
  deps: FlightBookingDeps,
  b: BookingRow,
  reference: string,
  ctx: AirlineBookingContext,
  traveller: FlightTraveller,
  attempt: AttemptFacts,
): Promise<Outcome> {
  const flight = (b.flight ?? {}) as FlightBlock;
  const set = await deps.registry.forAirline(b.airline_id);
  const route = flightRoute(b.flight_number, {
    carrier: ctx.carrier_code,
    configured: set.configured,
    ownAirline: set.ownAirline !== null,
  });
  if (route === 'BOOK_IN_OWN_SYSTEM' && !flight.flight_option_id) {
    return {
      status: 'NEEDS_REVIEW',
      reason: `the leg is on the airline's own carrier (${ctx.carrier_code}): book the crew seat in its own reservation system and record the PNR`,
      recommended_action: BOOK_IN_OWN_SYSTEM,
    };
  }
  if (route === 'OWN_AIRLINE' && set.ownAirline && !flight.flight_option_id) {
    const own = { name: 'OWN_AIRLINE' as const, live_mode: true };
    return bookOwnSeat(b, reference, traveller, set.ownAirline, deps.callbackBase, (order) =>
      ordered(b, own, order, true, ctx),
    );
  }
  const hint = { traveller, ...(b.duty_date ? { date: b.duty_date } : {}) };
  if (
    orderMayExist({ attemptsStarted: attempt.attemptsStarted, retry_count: b.retry_count, last_error: b.last_error })
  ) {
    const found = await findEarlierOrder(deps, b, set, reference, hint);
    if (found) return ordered(b, found.supplier, found.order, Boolean(flight.flight_option_id), ctx);
  }
  if (flight.flight_option_id) {
    // A committed option: the supplier that issued it books it (recorded at commit; else the one that knows it).
    const supplier =
      flightSupplierNamed(set, flight.supplier) ??
      (await offerInOrder(set, flight.flight_option_id))?.supplier ??
      set.flights[0]!;
    const order = await paced(deps, b.airline_id, supplier, () =>
      supplier.supplier.bookFlight({
        reference,
        flight_option_id: flight.flight_option_id!,
        traveller,
        booker_email: booker(b, ctx),
      }),
    );
    return ordered(b, supplier, order, true, ctx);
  }
  if (!b.from_airport || !b.to_airport || !b.duty_date)
    return { status: 'NEEDS_REVIEW', reason: 'the booking names no route or date to search' };
  let last: Outcome = {
    status: 'NEEDS_REVIEW',
    reason: 'no flight supplier is configured',
    recommended_action: 'BOOK_MANUALLY',
  };
  for (const supplier of set.flights) {
    try {
      const c0 = flight.constraints;
      // Duffel searches one cabin per request: the leg's or the airline's preferred cabin (the sandbox answers all).
      const cabin =
        supplier.name === 'SANDBOX'
          ? undefined
          : ((c0?.cabin_class as Cabin | null | undefined) ?? ctx.flightConfig.preferred_cabin);
      const query = {
        from_airport: b.from_airport,
        to_airport: b.to_airport,
        date: b.duty_date,
        ...(cabin ? { cabin } : {}),
      };
      const found = await paced(deps, b.airline_id, supplier, () => supplier.supplier.searchFlights(query));
      // A retail supplier never sells the airline's own flights to its crew (those are crew seats in its own system).
      const retail = retailOffers(found, ctx.carrier_code, set.configured && supplier.name !== 'SANDBOX');
      const options = fareConditionsFit(retail, ctx.fareConditions);
      if (retail.length > 0 && options.length === 0) {
        last = {
          status: 'NEEDS_REVIEW',
          reason: `no flight option meets the airline's fare conditions rule (${ctx.fareConditions})`,
          recommended_action: 'BOOK_MANUALLY',
        };
        continue;
      }
      const c = flight.constraints;
      const choice = chooseFlightOption(
        options,
        deadheadWindow(b, c),
        ctx.flightConfig,
        ctx.carrier_code,
        ctx.maxPrice,
        c?.cabin_class ?? undefined,
        ctx.fxRates,
      );
      if (!choice.ok) {
        last = { status: 'NEEDS_REVIEW', reason: choice.reason, recommended_action: 'BOOK_MANUALLY' };
        if (nextSupplierApplies({ kind: 'NO_OFFERS' })) continue;
      } else {
        const optionId = choice.option.flight_option_id;
        const expected = choice.option.price;
        const order = await paced(deps, b.airline_id, supplier, () =>
          supplier.supplier.bookFlight({
            reference,
            flight_option_id: optionId,
            traveller,
            booker_email: booker(b, ctx),
            expected_price: expected,
            price_mismatch: ctx.rateMatchMode,
            // The ceiling the choice met holds at ordering too: a moved or renewed fare above it is not bought.
            fare_ceiling: orderingCeiling(ctx.maxPrice, ctx.fxRates, choice.option.dep_time),
          }),
        );
        return ordered(b, supplier, order, false, ctx, expected);
      }
    } catch (err) {
      if (!isSupplierError(err) || !nextSupplierApplies({ kind: 'ERROR', transient: err.transient })) throw err;
      // An empty Duffel balance is for a person to top up, not for a retry loop (and the next supplier may book).
      if (err.code === 'INSUFFICIENT_BALANCE') deps.onInsufficientBalance?.(b.airline_id, supplier.name);
      last = {
        status: 'NEEDS_REVIEW',
        reason:
          err.code === 'FARE_ABOVE_CEILING'
            ? `at ordering: ${err.message}`
            : `supplier refused (${err.code}): ${err.message}`,
        recommended_action: 'BOOK_MANUALLY',
      };
    }
  }
  return last;
}

/**
 * Cancels the order at the supplier that holds it; an order a supplier will not cancel is its refusal (review), and
 * one held at a supplier no longer in the airline's order is a person's to cancel there (review). CANCELLED with
 * "nothing was ticketed" only when no order is known: none recorded, none found at the airline's suppliers.
 */
export async function cancelDeadhead(
  deps: FlightBookingDeps,
  b: BookingRow,
  traveller: FlightTraveller | null = null,
): Promise<Outcome> {
  const flight = (b.flight ?? {}) as FlightBlock;
  const set = await deps.registry.forAirline(b.airline_id);
  if (flight.supplier === 'OWN_AIRLINE') {
    if (!set.ownAirline)
      return {
        status: 'NEEDS_REVIEW',
        reason: "the crew seat is in the airline's own system, which is no longer connected: cancel it there",
      };
    // A seat requested and not answered yet: the cancellation waits for the answer (its callback resumes this
    // task, then with the PNR to give back). Settled now, with no PNR to name, a seat ticketed afterwards would
    // stay ticketed for good: the late callback finds the booking cancelled.
    if (awaitsOwnSeatAnswer(b.flight)) return { status: 'NEEDS_REVIEW', reason: null, awaiting: true };
    // A request whose answer never came is asked again first (the traveller as it was sent): see cancelOwnSeat.
    return cancelOwnSeat(b, set.ownAirline, deps.callbackBase, traveller);
  }
  let supplier = flightSupplierNamed(set, flight.supplier);
  // The ticket the booking records, unless it is cancelled already (a cancel-and-rebook cancelled it first).
  let supplierRef = b.flight?.supplier_status !== 'CANCELLED' ? (flight.supplier_ref ?? null) : null;
  // Ticketed at a supplier the operator has since taken out of the order: the ticket is still live there, and
  // nothing here can cancel it. A person does (review), and a rebook does not buy a second ticket beside it.
  if (supplierRef && !supplier)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the ticket is held at ${flight.supplier ?? 'SANDBOX'}, which is no longer in the airline's flight suppliers: cancel it there`,
    };
  if (!supplierRef) {
    // No live ticket is recorded: an order call whose answer was lost (a first booking's, a rebook's) may still
    // have made one, under the booking's latest order reference.
    const found = await findEarlierOrder(deps, b, set, latestOrderReference(b), {});
    if (found && found.order.status !== 'CANCELLED') {
      supplier = found.supplier;
      supplierRef = found.order.supplier_ref;
    }
  }
  if (!supplierRef || !supplier) return { status: 'CANCELLED', reason: 'nothing was ticketed at the supplier' };
  const holder = supplier;
  const cancelledRef = supplierRef;
  const order = await paced(deps, b.airline_id, holder, () =>
    holder.supplier.cancelFlight({
      supplier_ref: cancelledRef,
      reference: supplierReference('cancel', b.booking_id, cancelledRef),
    }),
  );
  return {
    status: 'CANCELLED',
    reason: null,
    patch: {
      flight: {
        ...(b.flight ?? {}),
        supplier: holder.name,
        supplier_ref: cancelledRef,
        supplier_status: order.status,
        ...(order.refund ? { refund: order.refund } : {}),
      },
    },
  };
}

/**
 * Before a task orders under `reference` (a cancel-and-rebook's, or a booking's that replaces an order whose
 * answer was lost): what the booking holds under an earlier reference is cancelled (the ticket it records, else
 * one found under its latest order reference), and that and `reference` are recorded on the booking before the
 * order goes out. Returns the booking to order on, or the task's end (the cancellation refused, or the task
 * superseded). Nothing to do when the booking's latest order reference is `reference` already: an earlier attempt
 * of this task got that far, and its order is looked up by the booking step.
 */
export async function replaceEarlierOrder(
  deps: FlightBookingDeps,
  b: BookingRow,
  reference: string,
  record: RecordBeforeOrder,
  traveller: FlightTraveller | null = null,
): Promise<BookingRow | Outcome> {
  if (!replacesEarlierOrder(b, reference)) return b;
  const cancelled = await cancelDeadhead(deps, b, traveller);
  if (!rebookAfterCancel(cancelled)) return cancelled;
  return (await record(cancelled.patch ?? {}, reference)) ?? SUPERSEDED;
}

/** The order an earlier attempt may have made: the orders a supplier announced are read before its order list. */
export async function findEarlierOrder(
  deps: FlightBookingDeps,
  b: BookingRow,
  set: AirlineSupplierSet,
  reference: string,
  hint: Parameters<FlightSupplier['findOrder']>[1],
) {
  for (const supplier of set.flights) {
    const sighted =
      supplier.name === 'SANDBOX' || !deps.sightedOrders
        ? []
        : await deps.sightedOrders(b.airline_id, supplier.name, reference, new Date(b.created_at));
    const order = await supplier.supplier.findOrder(reference, sighted.length > 0 ? { ...hint, sighted } : hint);
    if (order) return { supplier, order };
  }
  return null;
}

/**
 * Runs a call at one of the airline's own supplier accounts (not the shared sandbox): a lane paused by an
 * earlier 429 of that account waits without calling. A new 429 is turned into the lane's pause where every
 * task's supplier errors end (the booking processor), from the account the error names.
 */
export async function paced<T>(
  deps: FlightBookingDeps,
  airlineId: string,
  supplier: Pick<OrderedSupplier<unknown>, 'name'>,
  call: () => Promise<T>,
): Promise<T> {
  const waiting = supplier.name === 'SANDBOX' ? 0 : deps.pauses.remaining(airlineId, supplier.name);
  if (waiting > 0)
    throw new SupplierPaced(waiting, `${supplier.name} lane of this airline paused`, {
      airline_id: airlineId,
      supplier: supplier.name,
    });
  return call();
}

const booker = (b: BookingRow, ctx: AirlineBookingContext) => b.booked_by ?? ctx.policy.crew_booker_email ?? '';

export function ordered(
  b: BookingRow,
  supplier: Pick<OrderedSupplier<FlightSupplier>, 'name' | 'live_mode'>,
  order: FlightOrder,
  committed: boolean,
  ctx: AirlineBookingContext,
  expected?: Money,
): Outcome {
  // LOOSE ordered a fare that moved since the engine chose it: booked, and flagged (the sandbox's moves meet the ceiling).
  const priceFlag = supplier.name === 'SANDBOX' ? null : movedFareFlag(expected, order.price);
  // The booking's flight_number stays the airline's anchor (the rostered leg); what was booked is in the flight block.
  // A refund the block names is the cancelled ticket's (a rebook's): the new order has none.
  const { refund: _refund, ...kept } = b.flight ?? {};
  const block = {
    ...kept,
    supplier: supplier.name,
    live_mode: order.live_mode ?? supplier.live_mode,
    supplier_ref: order.supplier_ref,
    airline_code: order.flight.airline_code,
    flight_number: order.flight.flight_number,
    from_airport: order.flight.from_airport,
    to_airport: order.flight.to_airport,
    dep_time: order.flight.dep_time,
    arr_time: order.flight.arr_time,
    cabin: order.flight.cabin,
    price: order.price,
    supplier_status: order.status,
    ...(supplier.name === 'OWN_AIRLINE' ? { pnr: order.pnr, ticket_id: order.ticket_id } : {}),
    ...(priceFlag ? { price_flag: priceFlag } : {}),
  };
  const ticketing = ticketingOutcome(committed, order.price, order.flight.dep_time, ctx.maxPrice, ctx.fxRates);
  return { ...ticketing, reason: ticketing.reason ?? priceFlag, patch: { flight: block } };
}
