import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from '@crew/db';
import { generateRoster, mutateRoster } from '@crew/roster-generator';
import { allActionItems, http, onboard, type Stack, startStack, type Tenant, waitForSchedule } from '@crew/test-support';

/*
 * The worker keeps the roster state it stored last, decoded, and its next diff of the same airline takes it as it
 * is when the stored bytes are those it wrote (WrittenState); any other bytes are read from storage. Two airlines
 * submit the same sequence of rosters; one always finds its state as the worker left it, the other never does
 * (its stored state is recompressed between submissions: same state, other bytes). Every diff must come out the same.
 */

let stack: Stack;
const SCOPES = 'schedules:read schedules:write';
beforeAll(async () => {
  stack = await startStack('written-state', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

async function processed(scheduleId: string): Promise<{ previous_state: string }> {
  for (let i = 0; i < 400; i++) {
    const line = stack.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'schedule processed' && l.schedule_id === scheduleId);
    if (line) return line as { previous_state: string };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the worker never logged "schedule processed"');
}

async function submit(t: Tenant, body: unknown) {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  const id = res.body.schedule_id as string;
  expect((await waitForSchedule(stack, t.accessToken, id)).status).not.toBe('FAILED');
  const { previous_state } = await processed(id);
  const items = (await allActionItems(stack, t.accessToken, id)).map((i) => `${i.classification} ${JSON.stringify(i.anchors)} ${JSON.stringify(i.source_rows)} ${i.disposition}`);
  return { previous_state, items: items.sort() };
}

async function storedState(t: Tenant): Promise<string> {
  const row = await stack.database.db.selectFrom('roster_states').select('state_gzip').where('airline_id', '=', t.airlineId).executeTakeFirstOrThrow();
  return gunzipSync(row.state_gzip).toString();
}

/** The same state stored as other bytes: the worker can no longer recognise it as its own. */
async function recompress(t: Tenant): Promise<void> {
  const json = await storedState(t);
  await sql`update roster_states set state_gzip = ${gzipSync(json, { level: 9 })} where airline_id = ${t.airlineId}`.execute(stack.database.db);
}

it('a diff against the state the worker kept equals the diff against the state read back from storage', async () => {
  const kept = await onboard(stack, { name: 'Kept Air', carrier: 'KA', scopes: SCOPES, settings: { schedules_access: true } });
  const read = await onboard(stack, { name: 'Read Air', carrier: 'RA', scopes: SCOPES, settings: { schedules_access: true } });
  let roster = generateRoster({ pairings: 30, seed: 7, startDate: '2027-03-02', days: 6, crewPool: 40 });
  for (let step = 0; step < 4; step++) {
    const a = await submit(kept, roster);
    const b = await submit(read, roster);
    expect(a.previous_state).toBe(step === 0 ? 'none' : 'recalled');
    expect(b.previous_state).toBe(step === 0 ? 'none' : 'decoded');
    expect(a.items).toEqual(b.items);
    expect(await storedState(kept)).toBe(await storedState(read));
    await recompress(read);
    roster = mutateRoster(roster, { fraction: 0.3, seed: 100 + step });
  }
});
