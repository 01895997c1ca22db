import { openBookingContext, type TravellerVault } from '@crew/platform';
import { randomUUID } from 'node:crypto';
import { type PreviewActionItem, type ScheduleSubmission, type SchedulePreview } from '@crew/contracts';
import {
  airlinePolicyRepo,
  bookingRepo,
  cancellationHoldRepo,
  diffWriteRepo,
  gunzipText,
  rosterStateRepo,
  type Db,
} from '@crew/db';
import {
  diffAgainst,
  diffStateOf,
  flattenRoster,
  itemMessage,
  planItem,
  requestedBookingsByKey,
  returnedHolds,
  withKeptHolds,
  type DerivedActionItem,
  type ItemPlan,
  storedStateOfText,
} from '@crew/engine';

function outcomeOf(plan: ItemPlan): PreviewActionItem['outcome'] {
  if (plan.kind === 'COVERED') return 'ADOPT';
  return plan.decision.action === 'NONE' ? 'NO_ACTION' : plan.decision.action;
}

function previewItem(item: DerivedActionItem, plan: ItemPlan): PreviewActionItem {
  const base = {
    item_key: item.item_key,
    type: item.type,
    subtype: item.subtype,
    classification: item.classification,
    priority: item.priority,
    anchors: item.anchors,
    source_rows: item.source_rows,
    event_at: item.event_at,
    outcome: outcomeOf(plan),
    details: item.details as PreviewActionItem['details'],
  };
  if (plan.kind === 'COVERED') {
    return {
      ...base,
      booking_id: plan.covering.booking_id,
      auto_eligible: true,
      disposition: plan.disposition,
      reason: plan.message,
      recommended_action: null,
      hotel: null,
      message: plan.message,
    };
  }
  const d = plan.decision;
  return {
    ...base,
    booking_id: item.booking_id,
    auto_eligible: d.auto_eligible,
    disposition: plan.disposition as PreviewActionItem['disposition'],
    reason: d.reason,
    recommended_action: d.recommended_action,
    hotel: d.hotel
      ? {
          property_id: d.hotel.property_id,
          name: d.hotel.name,
          contract_id: d.hotel.contract_id,
          contracted_rate: d.hotel.rate,
        }
      : null,
    // As the worker writes it (planDiffWrites).
    message: itemMessage(d, item),
  };
}

const bump = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);

/**
 * The dry run of a roster: flattened, diffed against the airline's current state and planned by the booking
 * policy exactly as the worker would (the same rows, diffStateOf, diffAgainst, planItem), reading only: nothing
 * is written, no supplier is called, no job is queued. `compressed` is the roster as the intake stored it (gzip).
 */
export async function previewSchedule(
  db: Db,
  vault: TravellerVault,
  airlineId: string,
  compressed: Buffer,
  now: Date,
): Promise<SchedulePreview> {
  const submission = JSON.parse(await gunzipText(compressed)) as ScheduleSubmission;
  const processedAt = now.toISOString();
  const window = { start: submission.schedule_start_date, end: submission.schedule_end_date };
  const flat = flattenRoster(submission);
  // The rows the worker's diff reads (its read-diff-state step): the previous state, the window's bookings and what
  // the booking policy is made of; and the requested bookings its items may adopt.
  const [previous, hotelRows, flightRows, facts, requestedRows, held] = await Promise.all([
    rosterStateRepo.decodeRosterState(rosterStateRepo.loadRosterState(db, airlineId), storedStateOfText),
    diffWriteRepo.bookingsInWindow(db, airlineId, 'HOTEL', window.start, window.end),
    diffWriteRepo.bookingsInWindow(db, airlineId, 'FLIGHT', window.start, window.end),
    airlinePolicyRepo.loadBookingFacts(db, airlineId),
    bookingRepo.requestedLiveBookings(db, airlineId, window.start, window.end),
    cancellationHoldRepo.heldCancellations(db, airlineId),
  ]);
  const ctx = openBookingContext(vault, airlineId, facts, processedAt);
  const read = diffStateOf(previous, hotelRows, flightRows);
  // The held cancellations this roster would withdraw: their bookings are diffed live, as the worker's write does.
  const kept = returnedHolds(held, flat.layovers, read.hotelBookings, window, processedAt);
  const state = withKeptHolds(read, new Set(kept.map((k) => k.booking_id)));
  const requested = requestedBookingsByKey(requestedRows);
  const result = diffAgainst(flat, state, ctx, window, processedAt);
  const counts = {
    action_items: result.actionItems.length,
    by_classification: {} as Record<string, number>,
    by_outcome: {} as Record<string, number>,
    by_disposition: {} as Record<string, number>,
    audit_events: result.auditEvents.length,
  };
  const items = result.actionItems.map((item) => {
    // A throwaway id: decide() only uses it in a flight-options link, which a preview does not offer.
    const plan = planItem(item, randomUUID(), ctx.policy, state.statusById, requested);
    const p = previewItem(item, plan);
    bump(counts.by_classification, p.classification);
    bump(counts.by_outcome, p.outcome);
    bump(counts.by_disposition, p.disposition ?? 'OPEN');
    return p;
  });
  return {
    external_ref: submission.external_ref ?? null,
    schedule_start_date: window.start,
    schedule_end_date: window.end,
    previewed_at: processedAt,
    counts,
    action_items: items,
    audit_events: result.auditEvents.map((e) => ({
      classification: e.classification,
      message: e.message,
      anchors: e.anchors,
      source_rows: e.source_rows,
    })),
  };
}
