/**
 * The review tests' airline (console-queue.test.ts, console-review.browser.test.ts): a roster for tomorrow
 * whose deadhead waits for a person (auto-booking off: BOOK_MANUALLY) and whose JFK layover has no hotel
 * configured (in review), unless `contract` gives it a contracted hotel (GDS-JFK-001).
 */
import type { ActionItem } from '@crew/contracts';
import { reviewRepo } from '@crew/db';
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

/** Tomorrow (UTC): the roster's deadhead LHR → JFK departs at 09:00Z, its JFK layover checks in at 20:00Z. */
export const DAY1 = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * The queue lists items by their stored review status. Where the roster's writers do not store it yet, it is
 * stored here as the API derives it (the same values a writer stores; nothing changes where one did).
 */
export async function storeReviewFields(stack: Stack, items: ActionItem[]): Promise<void> {
  await reviewRepo.writeReviewStates(
    stack.database.db,
    items.map((i) => ({ action_id: i.action_id, review_status: i.review_status ?? null, due_by: i.due_by ?? null })),
  );
}

export interface ReviewAirline {
  t: Tenant;
  /** Tomorrow's deadhead, BOOK_MANUALLY. */
  flight: ActionItem;
  /** Tomorrow's JFK layover, PENDING_REVIEW. */
  hotel: ActionItem;
}

export async function reviewAirline(
  stack: Stack,
  opts: { name: string; carrier: string; crewName?: string; contract?: boolean },
): Promise<ReviewAirline> {
  const t = await onboard(stack, {
    name: opts.name,
    carrier: opts.carrier,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const email = `crew.${opts.carrier.toLowerCase()}@review.test`;
  await bookingAccount(stack, t, email);
  if (opts.contract)
    await contractStations(stack, t, ['JFK'], {
      from: DAY1,
      to: new Date(Date.parse(DAY1) + 30 * 86_400_000).toISOString().slice(0, 10),
    });
  const roster = onePairingRoster({ email, day1: DAY1 });
  if (opts.crewName) roster.pairings[0]!.crew[0]!.name = opts.crewName;
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    method: 'POST',
    token: t.accessToken,
    body: roster,
  });
  if (res.status !== 202) throw new Error(`roster: ${res.status} ${res.text}`);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const items = await allActionItems(stack, t.accessToken, res.body.schedule_id);
  await storeReviewFields(stack, items);
  const flight = items.find((i) => i.type === 'FLIGHT' && i.anchors.duty_date === DAY1)!;
  const hotel = items.find((i) => i.type === 'HOTEL' && i.anchors.duty_date === DAY1)!;
  return { t, flight, hotel };
}
