import { sql } from '@crew/db';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import { allActionItems, http, onboard, onePairingRoster, type Stack, startStack, type Tenant, waitForSchedule } from '@crew/test-support';

/*
 * Issue 12: a byte-identical resubmission whose diff would derive nothing skips the diff (copying the audit
 * events of the roster before it), and runs the full diff as soon as anything the diff reads has changed.
 */

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';
beforeAll(async () => {
  stack = await startStack('resubmission');
});
afterAll(() => stack.close());

const submit = async (t: Tenant, body: unknown) => {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
};

/** The roster with its pairing sent twice: DUPLICATE_ROW audit events that every resubmission must carry too. */
function roster() {
  const r = onePairingRoster();
  return { ...r, pairings: [r.pairings[0]!, structuredClone(r.pairings[0]!)] };
}

/** Row versions of the airline's rostered layovers: the full diff rewrites them, the shortcut does not. */
async function rosteredVersions(airlineId: string): Promise<string[]> {
  const r = await sql<{ v: string }>`select row_key || ':' || xmin::text as v from rostered_layovers where airline_id = ${airlineId} order by 1`.execute(stack.database.db);
  return r.rows.map((x) => x.v);
}

async function auditEvents(scheduleId: string) {
  return stack.database.db.selectFrom('audit_events').select(['event_key', 'classification', 'message']).where('schedule_id', '=', scheduleId).orderBy('event_key').execute();
}

it('a byte-identical resubmission derives nothing without re-diffing, and the full diff runs again once a booking changed', async () => {
  const t = await onboard(stack, { name: 'Same Air', carrier: 'SA', scopes: SCOPES, settings: { schedules_access: true } });
  const airline = await stack.database.db.selectFrom('airlines').select('airline_id').where('name', '=', 'Same Air').executeTakeFirstOrThrow();
  const w = startWorkerRuntime({ config: stack.config, db: stack.database.db, logger: createLogger('worker', 'silent'), suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }) });
  try {
    const first = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, first)).status).toBe('COMPLETED');
    const firstItems = await allActionItems(stack, t.accessToken, first);
    // No hotel configuration: every item is a review item with its new booking, so the state settles.
    expect(firstItems.map((i) => i.classification).sort()).toEqual(['NEW_DEADHEAD', 'NEW_LAYOVER']);
    const state = await stack.database.db.selectFrom('roster_states').selectAll().where('airline_id', '=', airline.airline_id).executeTakeFirstOrThrow();
    expect(state.settled_fingerprint).not.toBeNull();
    const firstAudit = await auditEvents(first);
    expect(firstAudit.length).toBeGreaterThan(0);
    const versions = await rosteredVersions(airline.airline_id);

    const again = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, again)).status).toBe('COMPLETED');
    expect(await allActionItems(stack, t.accessToken, again)).toEqual([]);
    expect(await auditEvents(again)).toEqual(firstAudit);
    // The shortcut ran: the rostered rows were not rewritten, the state is the same and now the new schedule's.
    expect(await rosteredVersions(airline.airline_id)).toEqual(versions);
    const after = await stack.database.db.selectFrom('roster_states').selectAll().where('airline_id', '=', airline.airline_id).executeTakeFirstOrThrow();
    expect(after.schedule_id).toBe(again);
    expect(after.state_gzip.equals(state.state_gzip)).toBe(true);

    // Someone moves the hotel booking's stay: the same roster must now ask for the roster's stay again.
    await stack.database.db
      .updateTable('bookings')
      .set({ checkin_time_local: '2027-03-10T18:00:00-05:00' })
      .where('airline_id', '=', airline.airline_id)
      .where('type', '=', 'HOTEL')
      .execute();
    const third = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, third)).status).toBe('COMPLETED');
    expect((await allActionItems(stack, t.accessToken, third)).map((i) => i.classification)).toEqual(['LAYOVER_DATE_CHANGE']);
    expect(await auditEvents(third)).toEqual(firstAudit);
  } finally {
    await w.close();
  }
});
