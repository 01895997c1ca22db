import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
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

let stack: Stack;
let t: Tenant;
const SCHEDULE_SCOPES = 'events:read events:write schedules:read schedules:write';

beforeAll(async () => {
  stack = await startStack('schedules', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
  t = await onboard(stack, { scopes: SCHEDULE_SCOPES, settings: { schedules_access: true } });
});
afterAll(() => stack.close());

const submit = (body: unknown, tenant = t) =>
  http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: tenant.accessToken, body });
const get = (path: string, tenant = t) => http(`${stack.apiUrl}/api/v1${path}`, { token: tenant.accessToken });

async function submitAndWait(body: unknown, tenant = t) {
  const res = await submit(body, tenant);
  expect(res.status).toBe(202);
  const status = await waitForSchedule(stack, tenant.accessToken, res.body.schedule_id);
  return {
    id: res.body.schedule_id as string,
    status,
    items: await allActionItems(stack, tenant.accessToken, res.body.schedule_id),
  };
}

describe('POST /crew/schedules', () => {
  it('answers 202 ScheduleAccepted: QUEUED, links, echoed external_ref', async () => {
    const res = await submit(onePairingRoster({ pairing: 'ACCEPT1' }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      schedule_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      external_ref: 'roster-1',
      processing_status: 'QUEUED',
      received_at: expect.any(String),
      links: {
        status: `/api/v1/crew/schedules/${res.body.schedule_id}/processing-status`,
        action_items: `/api/v1/crew/schedules/${res.body.schedule_id}/action-items`,
      },
    });
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  });

  it.each([
    ['an empty pairings array', (r: any) => ({ ...r, pairings: [] }), '/pairings'],
    ['an end before the start', (r: any) => ({ ...r, schedule_end_date: '2027-03-01' }), '/schedule_end_date'],
    [
      'a bad airport',
      (r: any) => ({ ...r, pairings: [{ ...r.pairings[0], origin_base: 'LONDON' }] }),
      '/pairings/0/origin_base',
    ],
    [
      'an unknown activity code',
      (r: any) => {
        const p = structuredClone(r.pairings[0]);
        p.duty_periods[0].legs[0].activity_code = 'XYZ';
        return { ...r, pairings: [p] };
      },
      '/pairings/0/duty_periods/0/legs/0/activity_code',
    ],
  ])('answers 422 VALIDATION_FAILED for %s, with a details entry naming the field', async (_l, mutate, field) => {
    const res = await submit(mutate(onePairingRoster()));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('answers 400 on malformed JSON and 403 without schedules:write', async () => {
    const bad = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      token: t.accessToken,
      raw: '{"pairings": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    const noScope = await onboard(stack, { name: 'No Sched Air', carrier: 'NS' });
    expect((await submit(onePairingRoster(), noScope)).status).toBe(403);
  });
});

describe('the roster body (read, decoded and checked in the intake thread)', () => {
  const post = (raw: string | Buffer, headers: Record<string, string>, tenant = t) =>
    http(`${stack.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      token: tenant.accessToken,
      raw,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('a gzip-encoded roster is processed like the plain one: the plain resubmission of the same roster yields nothing', async () => {
    const tenant = await onboard(stack, {
      name: 'Gzip Air',
      carrier: 'GZ',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const roster = onePairingRoster({ pairing: 'GZ1' });
    const res = await post(gzipSync(JSON.stringify(roster)), { 'content-encoding': 'gzip' }, tenant);
    expect(res.status).toBe(202);
    await waitForSchedule(stack, tenant.accessToken, res.body.schedule_id);
    const items = await allActionItems(stack, tenant.accessToken, res.body.schedule_id);
    expect(items.map((i) => i.classification).sort()).toEqual(['NEW_DEADHEAD', 'NEW_LAYOVER']);
    expect((await submitAndWait(roster, tenant)).items).toEqual([]);
  });

  it('a roster of several megabytes arrives whole and in order: the problem in its last pairing is named', async () => {
    const one = onePairingRoster().pairings[0]!;
    const pairings = Array.from({ length: 4000 }, (_, i) => ({ ...one, pairing_number: `BIG${i}` }));
    pairings[3999] = { ...pairings[3999]!, origin_base: 'NOWHERE' };
    const raw = JSON.stringify({ ...onePairingRoster(), pairings });
    expect(raw.length).toBeGreaterThan(4_000_000);
    const res = await post(raw, {});
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: '/pairings/3999/origin_base', issue: 'must match pattern "^[A-Z]{3}$"' },
    ]);
  });

  it('415 for another media type or an unsupported Content-Encoding; 400 for a broken gzip stream', async () => {
    const roster = JSON.stringify(onePairingRoster());
    const asText = await post(roster, { 'content-type': 'text/plain' });
    expect([asText.status, asText.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const brotli = await post(roster, { 'content-encoding': 'br' });
    expect([brotli.status, brotli.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await post(gzipSync(roster).subarray(0, 30), { 'content-encoding': 'gzip' });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('413 as soon as a declared Content-Length exceeds 256 MB, before any byte is sent', async () => {
    const url = new URL(`${stack.apiUrl}/api/v1/crew/schedules`);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${t.accessToken}`,
            'content-type': 'application/json',
            'content-length': String(256 * 1024 * 1024 + 1),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode!, body });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(stack.rosterIntake.inFlight).toBe(0);
  });
});

describe('the diff over HTTP', () => {
  it('a schedule still QUEUED or PROCESSING reports no items: they only exist once its write moved it out of PROCESSING', async () => {
    const tenant = await onboard(stack, {
      name: 'Undone Air',
      carrier: 'UD',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const { id, status, items } = await submitAndWait(onePairingRoster({ pairing: 'UNDONE1' }), tenant);
    expect(items).toHaveLength(2);
    const setStatus = (to: string) =>
      stack.database.db
        .updateTable('schedules')
        .set({ status: to as 'QUEUED' })
        .where('schedule_id', '=', id)
        .execute();
    const summaries = async () => [
      (await get(`/crew/schedules/${id}/processing-status`, tenant)).body,
      (await get(`/crew/schedules/${id}`, tenant)).body.summary,
    ];
    // Its rows stay where the write left them: were they still uncommitted, a poll would find none either.
    for (const unprocessed of ['QUEUED', 'PROCESSING']) {
      await setStatus(unprocessed);
      const [progress, detail] = await summaries();
      expect(progress).toMatchObject({
        status: unprocessed,
        poll_recommended: true,
        summary: { action_items_total: 0, action_items_pending_review: 0, audit_events: 0 },
      });
      expect(detail).toMatchObject({ action_items_total: 0, action_items_pending_review: 0 });
    }
    await setStatus(status.status);
    const [progress, detail] = await summaries();
    expect(progress).toMatchObject({
      status: status.status,
      poll_recommended: false,
      summary: { action_items_total: 2 },
    });
    expect(detail).toMatchObject({ action_items_total: 2 });
  });

  it('one pairing with a layover and a DH leg → one NEW_LAYOVER and one NEW_DEADHEAD with the right anchors; resubmitting it yields nothing', async () => {
    const tenant = await onboard(stack, {
      name: 'Diff Air',
      carrier: 'DF',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const first = await submitAndWait(onePairingRoster(), tenant);
    expect(first.status).toMatchObject({
      status: 'COMPLETED',
      poll_recommended: false,
      flight_tasks_pending: 0,
      error: null,
    });
    expect(first.items.map((i) => i.classification).sort()).toEqual(['NEW_DEADHEAD', 'NEW_LAYOVER']);
    const hotel = first.items.find((i) => i.type === 'HOTEL');
    const flight = first.items.find((i) => i.type === 'FLIGHT')!;
    expect(hotel).toMatchObject({
      source: 'SCHEDULE_DIFF',
      subtype: 'NEW_BOOKING',
      schedule_id: first.id,
      anchors: { employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
      booking_id: expect.any(String),
    });
    expect(flight).toMatchObject({
      subtype: 'NEW_BOOKING',
      anchors: { employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
      details: expect.objectContaining({ from_airport: 'LHR', to_airport: 'JFK' }),
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      flight_options_url: `/api/v1/crew/flight-options?action_id=${flight.action_id}`,
    });
    expect(first.status.summary).toMatchObject({ action_items_total: 2, action_items_pending_review: 2 });

    const again = await submitAndWait(onePairingRoster(), tenant);
    expect(again.items).toEqual([]);
    expect(again.status.summary.action_items_total).toBe(0);

    // The pre-filled flight search follows the action item's own route and date.
    const options = await get(`/crew/flight-options?action_id=${flight.action_id}`, tenant);
    expect(options.status).toBe(200);
    expect(options.body.options[0]).toMatchObject({ from_airport: 'LHR', to_airport: 'JFK' });
    expect(options.body.options[0].dep_time.slice(0, 10)).toBe('2027-03-10');
    expect((await get(`/crew/flight-options?action_id=${flight.action_id}`, t)).status).toBe(404);
  });

  it('a changed leg_sequence → one DEADHEAD_CANCELLED and one NEW_DEADHEAD', async () => {
    const tenant = await onboard(stack, {
      name: 'Seq Air',
      carrier: 'SQ',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    await submitAndWait(onePairingRoster(), tenant);
    const changed = await submitAndWait(onePairingRoster({ legSequence: 2 }), tenant);
    expect(changed.items.map((i) => i.classification).sort()).toEqual(['DEADHEAD_CANCELLED', 'NEW_DEADHEAD']);
    const cancelled = changed.items.find((i) => i.classification === 'DEADHEAD_CANCELLED')!;
    expect(cancelled.subtype).toBe('CANCEL');
    expect(cancelled.source_rows.day1_row).toEqual(expect.any(Number));
  });

  it('a leg whose duty_date disagrees with its departure date produces nothing', async () => {
    const tenant = await onboard(stack, {
      name: 'Drop Air',
      carrier: 'DR',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const roster = onePairingRoster();
    const p = roster.pairings[0]!;
    p.duty_periods[0]!.layover = undefined;
    p.duty_periods[0]!.legs[0]!.dep_time_local = '2027-03-11T09:00:00+00:00';
    p.duty_periods[0]!.legs[0]!.expected_dep_time_local = '2027-03-11T09:00:00+00:00';
    p.duty_periods[0]!.legs[0]!.arr_time_local = '2027-03-11T12:00:00-05:00';
    p.duty_periods[0]!.legs[0]!.expected_arr_time_local = '2027-03-11T12:00:00-05:00';
    const r = await submitAndWait(roster, tenant);
    expect(r.items).toEqual([]);
    expect(r.status.summary.audit_events).toBe(0);
  });
});

describe('read endpoints', () => {
  it('lists schedules newest first, visiting each exactly once across pages, with total_results', async () => {
    const tenant = await onboard(stack, {
      name: 'List Air',
      carrier: 'LI',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await submit(onePairingRoster({ pairing: `L${i}` }), tenant)).body.schedule_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await get(`/crew/schedules?limit=3${cursor ? `&cursor=${cursor}` : ''}`, tenant);
      expect(res.status).toBe(200);
      expect(res.body.total_results).toBe(7);
      seen.push(...res.body.schedules.map((s: { schedule_id: string }) => s.schedule_id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await get('/crew/schedules?limit=0', tenant)).status).toBe(400);
    expect((await get('/crew/schedules?limit=201', tenant)).status).toBe(400);
    const filtered = await get('/crew/schedules?status=FAILED', tenant);
    expect(filtered.body).toMatchObject({ schedules: [], total_results: 0 });
    for (const id of ids) await waitForSchedule(stack, tenant.accessToken, id);
  });

  it('actions.csv has a header and one RFC 4180 row per action item', async () => {
    const tenant = await onboard(stack, {
      name: 'Csv Air',
      carrier: 'CS',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const r = await submitAndWait(onePairingRoster(), tenant);
    const res = await fetch(`${stack.apiUrl}/api/v1/crew/schedules/${r.id}/actions.csv`, {
      headers: { authorization: `Bearer ${tenant.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'action_id,schedule_id,source,type,subtype,classification,priority,disposition,auto_eligible,anchors.employee_id,anchors.pairing_number,anchors.duty_date,anchors.traveller_email,source_rows.day1_row,source_rows.day2_row,booking_id,flight_options_url,recommended_action,created_at',
    );
    expect(lines.length).toBe(1 + r.items.length);
    for (const item of r.items)
      expect(lines.some((l) => l.startsWith(`${item.action_id},${r.id},SCHEDULE_DIFF,${item.type}`))).toBe(true);
  });

  it('another airline’s schedule is 404 everywhere', async () => {
    const tenant = await onboard(stack, {
      name: 'Private Air',
      carrier: 'PR',
      scopes: SCHEDULE_SCOPES,
      settings: { schedules_access: true },
    });
    const r = await submitAndWait(onePairingRoster(), tenant);
    for (const path of ['', '/processing-status', '/action-items', '/audit-events', '/actions.csv']) {
      const res = await get(`/crew/schedules/${r.id}${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await get('/crew/schedules/not-a-uuid')).status).toBe(404);
    expect(
      (await get('/crew/schedules')).body.schedules.map((s: { schedule_id: string }) => s.schedule_id),
    ).not.toContain(r.id);
  });
});
