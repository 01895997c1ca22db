import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime, type WorkerRuntime } from '@crew/worker';
import {
  allActionItems,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

/*
 * Spec 2.1 `as_of` with rule 2 (every submission is the complete current state): a snapshot captured before one
 * already applied over an overlapping window is FAILED with its reason, and changes nothing.
 */

let stack: Stack;
let worker: WorkerRuntime;
let t: Tenant;
beforeAll(async () => {
  stack = await startStack('stale-snapshot');
  t = await onboard(stack, {
    name: 'Snapshot Air',
    carrier: 'SN',
    scopes: 'schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  worker = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
});
afterAll(async () => {
  await worker.close();
  await stack.close();
});

const submit = async (body: unknown) => {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
};

const bookings = () =>
  stack.database.db
    .selectFrom('bookings')
    .select(['booking_id', 'status', 'pairing_number'])
    .orderBy('booking_id')
    .execute();

it('an older capture arriving after a newer one is not applied; a later capture is', async () => {
  const newer = await submit({ ...onePairingRoster({ pairing: 'P100' }), as_of: '2027-03-01T10:00:00Z' });
  expect((await waitForSchedule(stack, t.accessToken, newer)).status).toBe('COMPLETED');
  const held = await bookings();
  expect(held.map((b) => b.pairing_number)).toContain('P100');

  // Captured an hour earlier (as 11:00 at +02:00), over the same window, with another pairing in place of P100.
  const older = await submit({ ...onePairingRoster({ pairing: 'P200' }), as_of: '2027-03-01T11:00:00+02:00' });
  const status = await waitForSchedule(stack, t.accessToken, older);
  expect(status.status).toBe('FAILED');
  expect(status.error).toContain(newer);
  expect(status.error).toContain('not applied');
  expect(await allActionItems(stack, t.accessToken, older)).toEqual([]);
  expect(await bookings()).toEqual(held);

  // The same roster captured after the newer one is the current state: applied.
  const later = await submit({ ...onePairingRoster({ pairing: 'P200' }), as_of: '2027-03-01T10:00:01Z' });
  expect((await waitForSchedule(stack, t.accessToken, later)).status).toBe('COMPLETED');
  const items = await allActionItems(stack, t.accessToken, later);
  expect(items.length).toBeGreaterThan(0);
  expect((await bookings()).map((b) => b.pairing_number)).toContain('P200');
});
