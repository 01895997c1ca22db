import {
  allActionItems,
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

/** The coverage monitor (GET /crew/coverage, /crew/coverage/deadheads and their CSV). */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('coverage', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());
afterEach(() => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' }));

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const fault = async (body: Record<string, unknown>) =>
  expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);
/** The test roster's JFK layover checks in 2027-03-10T15:00-05:00 (20:00Z). */
const WINDOW = `from=${encodeURIComponent('2027-03-10T00:00:00Z')}&hours=48`;

let n = 0;
async function airline(opts: { contract?: boolean; settings?: Record<string, unknown> } = {}) {
  n++;
  const t = await onboard(stack, {
    name: `Cover Air ${n}`,
    carrier: `C${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${n}@cover.test`;
  await bookingAccount(stack, t, email);
  if (opts.contract !== false) await contractStations(stack, t, ['JFK']);
  return { t, email };
}

async function roster(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return allActionItems(stack, t.accessToken, res.body.schedule_id);
}

async function coverage(t: Tenant, query = '') {
  const res = await api(t, `/crew/coverage?${WINDOW}${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('layover coverage', () => {
  it('a contracted layover is COVERED once its booking confirms; its DH leg awaiting a manual flight choice is AT_RISK', async () => {
    const { t, email } = await airline();
    const items = await roster(t, onePairingRoster({ email }));
    const hotel = items.find((i) => i.type === 'HOTEL')!;
    expect((await api(t, `/crew/bookings/${hotel.booking_id}`)).body.status).toBe('CONFIRMED');
    const c = await coverage(t);
    expect(c.counts).toEqual({ COVERED: 1, AT_RISK: 0, UNCOVERED: 0 });
    expect(c.stations).toEqual([{ station: 'JFK', COVERED: 1, AT_RISK: 0, UNCOVERED: 0 }]);
    expect(c.layovers).toEqual([
      {
        employee_id: 'E1',
        pairing_number: 'P100',
        duty_date: '2027-03-10',
        duty_period_num: 1,
        station: 'JFK',
        checkin_time_local: '2027-03-10T15:00:00-05:00',
        checkout_time_local: '2027-03-11T09:00:00-05:00',
        traveller_email: email,
        origin: 'ROSTERED',
        booking_id: hotel.booking_id,
        booking_status: 'CONFIRMED',
        status: 'COVERED',
        reason: null,
      },
    ]);
    // Outside the window: nothing.
    expect(
      (await api(t, `/crew/coverage?from=${encodeURIComponent('2027-03-11T00:00:00Z')}&hours=24`)).body.layovers,
    ).toEqual([]);

    const dh = (await api(t, `/crew/coverage/deadheads?${WINDOW}`)).body;
    expect(dh.counts).toEqual({ COVERED: 0, AT_RISK: 1, UNCOVERED: 0 });
    expect(dh.deadheads[0]).toMatchObject({
      from_airport: 'LHR',
      to_airport: 'JFK',
      leg_sequence: 1,
      booking_status: 'NEEDS_REVIEW',
      status: 'AT_RISK',
      reason: expect.stringMatching(/^the booking awaits review: deadhead auto-booking is not enabled/),
    });
  });

  it('a FAILED booking makes the layover AT_RISK', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const items = await roster(t, onePairingRoster({ email }));
    const hotel = items.find((i) => i.type === 'HOTEL')!;
    expect((await api(t, `/crew/bookings/${hotel.booking_id}`)).body.status).toBe('FAILED');
    const c = await coverage(t);
    expect(c.counts).toEqual({ COVERED: 0, AT_RISK: 1, UNCOVERED: 0 });
    expect(c.layovers[0]).toMatchObject({
      booking_id: hotel.booking_id,
      booking_status: 'FAILED',
      status: 'AT_RISK',
      reason: 'the booking FAILED and awaits retry',
    });
  });

  it('a roster dropping the pairing with cancellation off keeps its booking visible as AT_RISK (stay no longer rostered)', async () => {
    const { t, email } = await airline({ settings: { cancellation_execution: false } });
    const items = await roster(t, onePairingRoster({ email }));
    const hotel = items.find((i) => i.type === 'HOTEL')!;
    // The same window without pairing P100 (another crew member's pairing instead).
    const dropped = await roster(t, onePairingRoster({ email, pairing: 'P200', employee: 'E9' }));
    expect(dropped.find((i) => i.type === 'HOTEL' && i.anchors.pairing_number === 'P100')).toMatchObject({
      classification: 'LAYOVER_CANCELLED',
      disposition: 'PENDING_REVIEW',
    });
    const c = await coverage(t);
    expect(c.counts).toEqual({ COVERED: 1, AT_RISK: 1, UNCOVERED: 0 });
    expect(c.layovers.filter((l: any) => l.pairing_number === 'P100')).toEqual([
      expect.objectContaining({
        origin: 'DROPPED',
        booking_id: hotel.booking_id,
        status: 'AT_RISK',
        reason: 'stay no longer rostered: its cancellation awaits review',
        station: 'JFK',
      }),
    ]);
  });

  it('a rostered layover whose booking was cancelled is UNCOVERED; filters, CSV and keyset pages', async () => {
    const { t, email } = await airline();
    const body = onePairingRoster({ email });
    // A second crew member on the same pairing.
    body.pairings[0]!.crew.push({
      employee_id: 'E2',
      name: 'Grace Hopper',
      rank: 'FO',
      home_base: 'LHR',
      traveller_email: `b-${email}`,
    });
    const items = await roster(t, body);
    const e1 = items.find((i) => i.type === 'HOTEL' && i.anchors.employee_id === 'E1')!;
    expect((await api(t, `/crew/bookings/${e1.booking_id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await waitFor(
      async () => (await api(t, `/crew/bookings/${e1.booking_id}`)).body.status === 'CANCELLED',
      10_000,
      'the booking to be CANCELLED',
    );
    const c = await coverage(t);
    expect(c.counts).toEqual({ COVERED: 1, AT_RISK: 0, UNCOVERED: 1 });
    expect(c.layovers.find((l: any) => l.employee_id === 'E1')).toMatchObject({
      status: 'UNCOVERED',
      booking_status: 'CANCELLED',
      reason: 'its booking is CANCELLED but the layover is still in the roster',
    });

    const uncovered = await coverage(t, '&status=UNCOVERED');
    expect(uncovered.total_results).toBe(1);
    expect(uncovered.counts).toEqual(c.counts);
    expect(uncovered.layovers.map((l: any) => l.employee_id)).toEqual(['E1']);
    expect((await coverage(t, '&station=EWR')).counts).toEqual({ COVERED: 0, AT_RISK: 0, UNCOVERED: 0 });

    const first = await coverage(t, '&limit=1');
    expect(first.layovers).toHaveLength(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await coverage(t, `&limit=1&cursor=${first.next_cursor}`);
    expect(second.layovers).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect(new Set([first.layovers[0].employee_id, second.layovers[0].employee_id])).toEqual(new Set(['E1', 'E2']));
    expect((await api(t, `/crew/coverage?${WINDOW}&cursor=nonsense`)).status).toBe(400);

    const csv = await api(t, `/crew/coverage.csv?${WINDOW}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'employee_id,pairing_number,duty_date,duty_period_num,station,checkin_time_local,checkout_time_local,traveller_email,origin,booking_id,booking_status,status,reason',
    );
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('E1,'))).toContain(',UNCOVERED,');
    const dcsv = await api(t, `/crew/coverage/deadheads.csv?${WINDOW}`);
    expect(dcsv.text.trim().split('\r\n')).toHaveLength(3);
  });

  it('never shows another airline’s crew, even with the same employee ids and pairing numbers', async () => {
    const a = await airline();
    const b = await airline({ contract: false });
    await roster(a.t, onePairingRoster({ email: a.email }));
    await roster(b.t, onePairingRoster({ email: b.email }));
    const ca = await coverage(a.t);
    const cb = await coverage(b.t);
    expect(ca.layovers.map((l: any) => l.traveller_email)).toEqual([a.email]);
    expect(cb.layovers.map((l: any) => l.traveller_email)).toEqual([b.email]);
    // B has no contract: its layover awaits review, whatever A's booking is.
    expect(ca.counts).toEqual({ COVERED: 1, AT_RISK: 0, UNCOVERED: 0 });
    expect(cb.counts).toEqual({ COVERED: 0, AT_RISK: 1, UNCOVERED: 0 });
    expect(cb.layovers[0].reason).toBe('the booking awaits review: no hotel configuration exists for station JFK');
  });

  it('validates its query', async () => {
    const { t } = await airline({ contract: false });
    expect((await api(t, '/crew/coverage?hours=0')).status).toBe(400);
    expect((await api(t, '/crew/coverage?hours=169')).status).toBe(400);
    expect((await api(t, '/crew/coverage?status=MAYBE')).status).toBe(400);
    expect((await api(t, '/crew/coverage?from=yesterday')).status).toBe(400);
  });

  it('a `from` at either end of the accepted years answers an empty window, never a 500', async () => {
    const { t } = await airline({ contract: false });
    for (const from of ['9999-12-31T00:00:00Z', '0001-01-01T00:00:00Z'])
      for (const path of [
        '/crew/coverage',
        '/crew/coverage/deadheads',
        '/crew/coverage.csv',
        '/crew/coverage/deadheads.csv',
      ]) {
        const res = await api(t, `${path}?from=${encodeURIComponent(from)}&hours=168`);
        expect([path, from, res.status]).toEqual([path, from, 200]);
      }
    const body = (await api(t, `/crew/coverage?from=${encodeURIComponent('9999-12-31T00:00:00Z')}`)).body;
    expect(body.counts).toEqual({ COVERED: 0, AT_RISK: 0, UNCOVERED: 0 });
  });
});
