/**
 * The supplier calls the hold saves on a flapping roster (docs/cost-control.md): ten rosters alternately drop and
 * restore the layovers of N crew members, once with cancel_hold_minutes 0 and once with 30 (each next roster within
 * the hold). Every supplier call the sandbox answers is counted, from the first roster on.
 */
import type { ScheduleSubmission } from '@crew/contracts';
import {
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

jest.setTimeout(180_000);

const N = 5;
const ROSTERS = 10;
let stack: Stack;
let clock = new Date('2027-03-13T12:00:00Z');

beforeAll(async () => {
  stack = await startStack('cost_flapping', { worker: true, now: () => clock });
});
afterAll(() => stack.close());

async function noTaskInFlight(airlineId: string): Promise<boolean> {
  const open = await stack.database.db
    .selectFrom('action_items')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('airline_id', '=', airlineId)
    .where('disposition', 'is', null)
    .where('held_until', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(open.n) === 0;
}

function roster(withLayovers: boolean): ScheduleSubmission {
  const pairings = Array.from({ length: N }, (_, i) => {
    const p = onePairingRoster({
      day1: '2027-03-19',
      pairing: `P${100 + i}`,
      employee: `E${i}`,
      email: `crew${i}@crew.test`,
    }).pairings[0]!;
    if (!withLayovers) delete (p.duty_periods[0] as { layover?: unknown }).layover;
    return p;
  });
  return { ...onePairingRoster({ day1: '2027-03-19' }), pairings };
}

async function flapping(hold: number): Promise<{ calls: number; cancels: number; live: number }> {
  const t: Tenant = await onboard(stack, {
    name: `Flap ${hold}`,
    carrier: `F${hold % 10}`,
    scopes: 'schedules:read schedules:write events:read events:write',
    settings: { schedules_access: true, cancellation_execution: true },
  });
  await bookingAccount(stack, t, 'crew0@crew.test');
  await contractStations(stack, t, ['JFK']);
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  const hotel = (await api('/crew/config/hotels')).body.bases[0].hotels[0].hotel_config_id;
  const contract = (await api(`/crew/config/hotels/${hotel}/contracts`)).body.contracts[0].contract_id;
  await api(`/crew/config/hotels/${hotel}/contracts/${contract}`, {
    method: 'PATCH',
    body: { cancellation_deadline: { days_before: 0, local_time: '18:00' } },
  });
  await api('/crew/config/cost', { method: 'PUT', body: { cancel_hold_minutes: hold } });
  const sum = () => Object.values(stack.sandbox.sandbox.callCounts()).reduce((a, b) => a + b, 0);
  const cancelCount = () => stack.sandbox.sandbox.callCounts()['cancelHotelReservation'] ?? 0;
  const [calls0, cancels0] = [sum(), cancelCount()];
  for (let i = 0; i < ROSTERS; i++) {
    // Five minutes apart: each roster arrives within the previous one's 30-minute hold.
    clock = new Date(Date.parse('2027-03-13T12:00:00Z') + i * 5 * 60_000);
    const res = await api('/crew/schedules', { method: 'POST', body: roster(i % 2 === 0) });
    expect(res.status).toBe(202);
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
    // Every booking task of the airline's rosters has ended before the next arrives (a held cancellation has
    // none in flight): waited on, not slept on.
    await waitFor(() => noTaskInFlight(t.airlineId), 10_000, 'the booking tasks of the rosters so far to end');
  }
  const live = await stack.database.db
    .selectFrom('bookings')
    .select(({ fn }) => fn.countAll<number>().as('n'))
    .where('airline_id', '=', t.airlineId)
    .where('type', '=', 'HOTEL')
    .where('status', '=', 'CONFIRMED')
    .executeTakeFirstOrThrow();
  return { calls: sum() - calls0, cancels: cancelCount() - cancels0, live: Number(live.n) };
}

it(`reports the supplier calls saved on ${ROSTERS} rosters alternately dropping and restoring ${N} layovers`, async () => {
  const without = await flapping(0);
  const held = await flapping(30);
  console.log(
    `flapping rosters (${ROSTERS} rosters, ${N} layovers): hold 0 → ${without.calls} supplier calls (${without.cancels} cancellations, ${without.live} rooms left); hold 30 min → ${held.calls} supplier calls (${held.cancels} cancellations, ${held.live} rooms left)`,
  );
  // Without a hold each layover is cancelled at the first drop and never re-created (spec rule 10).
  expect(without.cancels).toBe(N);
  expect(without.live).toBe(0);
  // With it nothing is cancelled and every crew member keeps the room.
  expect(held.cancels).toBe(0);
  expect(held.live).toBe(N);
  expect(held.calls).toBeLessThan(without.calls);
});
