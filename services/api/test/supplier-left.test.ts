import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

/*
 * A booking made through a supplier the operator has since taken out of the airline's order: its ticket or room
 * is still held there. Cancelling it (DELETE, a PATCH's rebook, a roster's change) goes to a person, who cancels
 * it at that supplier; it is never called CANCELLED with the order still live, nor rebooked beside it.
 */
/** The in-process worker's reuse of an airline's supplier setting, shortened here (5 s deployed). */
const SETTING_REUSE_MS = 500;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('supplier_left', {
    worker: true,
    now: () => new Date('2027-03-01T00:00:00Z'),
    supplierSettingsTtlMs: SETTING_REUSE_MS,
  });
});
afterAll(() => stack?.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const sandboxReservations = async (email: string, kind: 'flight' | 'hotel') =>
  (
    (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
      .reservations as any[]
  ).filter((r) => r.kind === kind);
const duffelOrders = async (token: string) =>
  (await http(`${stack.sandboxUrl}/_control/duffel/orders?token=${token}`)).body.orders as unknown[];
/** Past the worker's reuse of an airline's resolved supplier setting, the operator's change applies. */
const settingApplies = () => new Promise((r) => setTimeout(r, SETTING_REUSE_MS + 200));
const SECRET = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;

let n = 0;
/** An airline booking flights and hotels at the sandbox alone, with a traveller Duffel could book too. */
async function airline(settings: Record<string, unknown> = {}) {
  n++;
  const carrier = `Q${String.fromCharCode(64 + n)}`;
  const t = await onboard(stack, {
    name: `Left Air ${n}`,
    carrier,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, ...settings },
  });
  const email = `crew${n}@left.test`;
  await bookingAccount(stack, t, email);
  const profile = await api(t, '/crew/travellers/E1', {
    method: 'PUT',
    body: { title: 'ms', gender: 'f', phone_number: '+442071234567' },
  });
  expect(profile.status).toBeLessThan(300);
  const put = await ops(`/airlines/${t.airlineId}/suppliers`, {
    method: 'PUT',
    body: { flights: ['SANDBOX'], hotels: ['SANDBOX'] },
  });
  expect(put.status).toBe(200);
  return { t, email, carrier, token: `duffel_test_supplier_left_${n}_${Date.now()}` };
}

async function submit(t: Tenant, roster: ReturnType<typeof onePairingRoster>) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: roster });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return {
    scheduleId: res.body.schedule_id as string,
    items: await allActionItems(stack, t.accessToken, res.body.schedule_id),
  };
}

/** The roster's deadhead ticketed at the sandbox: the option the airline picks, committed. */
async function sandboxTicket(t: Tenant, email: string): Promise<string> {
  const { items } = await submit(t, onePairingRoster({ email }));
  const item = items.find((i) => i.type === 'FLIGHT')!;
  expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', recommended_action: 'BOOK_MANUALLY' });
  const option = (await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken })).body.options[0];
  const commit = await api(t, '/crew/bookings/request', {
    method: 'POST',
    body: {
      type: 'FLIGHT',
      classification: 'NEW_DEADHEAD',
      anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
      flight: { flight_option_id: option.flight_option_id },
    },
  });
  expect(commit.status).toBe(202);
  const booked = await settledBooking(stack, t.accessToken, item.booking_id!);
  expect(booked).toMatchObject({
    status: 'CONFIRMED',
    flight: { supplier: 'SANDBOX', supplier_ref: expect.any(String) },
  });
  return item.booking_id!;
}

/** The operator sets the airline's supplier order; once the worker's reuse of the old one is over, it applies. */
async function setOrder(t: Tenant, body: Record<string, unknown>) {
  const put = await ops(`/airlines/${t.airlineId}/suppliers`, { method: 'PUT', body });
  expect(put.status).toBe(200);
  await settingApplies();
}

/** The booking of the roster's item of `type`, once CONFIRMED at the sandbox. */
async function confirmedAtSandbox(
  t: Tenant,
  items: { type: string; booking_id?: string | null }[],
  type: 'FLIGHT' | 'HOTEL',
) {
  const bookingId = items.find((i) => i.type === type)!.booking_id!;
  expect(await settledBooking(stack, t.accessToken, bookingId)).toMatchObject({
    status: 'CONFIRMED',
    [type === 'FLIGHT' ? 'flight' : 'hotel']: { supplier: 'SANDBOX' },
  });
  return bookingId;
}

/** The sandbox holds exactly one reservation of that kind for the traveller, and it is not cancelled. */
async function stillLiveAtSandbox(email: string, kind: 'flight' | 'hotel') {
  const held = await sandboxReservations(email, kind);
  expect(held).toHaveLength(1);
  expect(held[0].status).not.toBe('CANCELLED');
  expect(held[0].cancelled_at).toBeNull();
}

describe("a deadhead ticketed at a supplier no longer in the airline's order", () => {
  it('DELETE → NEEDS_REVIEW naming the supplier to cancel it at; the ticket stays live there (never CANCELLED)', async () => {
    const { t, email, carrier } = await airline();
    const bookingId = await sandboxTicket(t, email);
    await setOrder(t, {
      flights: ['OWN_AIRLINE'],
      hotels: ['SANDBOX'],
      own_airline: { url: 'https://crew.example.test/seats', carrier, signing_secret: SECRET },
    });

    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' })).status).toBe(202);
    const after = await settledBooking(stack, t.accessToken, bookingId);
    expect(after.status).toBe('NEEDS_REVIEW');
    expect(after.review_reason).toContain('SANDBOX');
    expect(after.review_reason).toContain('cancel it there');
    await stillLiveAtSandbox(email, 'flight');
  });

  it("a PATCH's rebook: the old booking goes to review, its ticket still live at the sandbox (not called cancelled)", async () => {
    const { t, email, token } = await airline();
    const bookingId = await sandboxTicket(t, email);
    await setOrder(t, { flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });

    const patch = await api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { flight: {} } });
    expect(patch.status).toBe(202);
    const old = await settledBooking(stack, t.accessToken, bookingId);
    expect(old.status).toBe('NEEDS_REVIEW');
    expect(old.review_reason).toContain('SANDBOX');
    await stillLiveAtSandbox(email, 'flight');
  });

  it("a roster's time change (cancel-and-rebook) → NEEDS_REVIEW, no second ticket at the airline's new supplier", async () => {
    const { t, email, token } = await airline({ deadhead_auto_booking: true, booking_modification: true });
    const { items } = await submit(t, onePairingRoster({ email }));
    const bookingId = await confirmedAtSandbox(t, items, 'FLIGHT');
    await setOrder(t, { flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });

    const moved = onePairingRoster({ email });
    const leg = moved.pairings[0]!.duty_periods[0]!.legs[0]!;
    leg.dep_time_local = leg.expected_dep_time_local = '2027-03-10T10:00:00+00:00';
    leg.arr_time_local = leg.expected_arr_time_local = '2027-03-10T13:00:00-05:00';
    const change = (await submit(t, moved)).items.find((i) => i.type === 'FLIGHT');
    expect(change).toMatchObject({ classification: 'DEADHEAD_TIME_CHANGE', booking_id: bookingId });
    const after = await waitFor(
      async () => {
        const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
        return b.status !== 'PENDING' && b.status !== 'CONFIRMED' && b;
      },
      15_000,
      'the change to settle',
    );
    expect(after.status).toBe('NEEDS_REVIEW');
    expect(after.review_reason).toContain('SANDBOX');
    expect(await duffelOrders(token)).toEqual([]);
    await stillLiveAtSandbox(email, 'flight');
  });
});

describe("a stay reserved at a supplier no longer in the airline's order", () => {
  it('DELETE → NEEDS_REVIEW naming the supplier; the room stays live there and no fee (or fee avoided) is recorded', async () => {
    const { t, email, token } = await airline();
    await contractStations(stack, t, ['JFK']);
    const { items } = await submit(t, onePairingRoster({ email }));
    const bookingId = await confirmedAtSandbox(t, items, 'HOTEL');
    await setOrder(t, { flights: ['SANDBOX'], hotels: ['DUFFEL'], duffel: { access_token: token } });

    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' })).status).toBe(202);
    const after = await settledBooking(stack, t.accessToken, bookingId);
    expect(after.status).toBe('NEEDS_REVIEW');
    expect(after.review_reason).toContain('SANDBOX');
    expect(after.review_reason).toContain('cancel it there');
    expect(after.hotel).not.toHaveProperty('cancellation_penalty');
    expect(after.hotel).not.toHaveProperty('cancellation_penalty_avoided');
    await stillLiveAtSandbox(email, 'hotel');
  });
});
