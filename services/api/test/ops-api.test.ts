import { http, type Stack, startStack } from '@crew/test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('ops_api');
});
afterAll(() => stack.close());

const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

describe('operator API', () => {
  it('refuses a missing or wrong operator token with 401', async () => {
    expect((await http(`${stack.apiUrl}/ops/v1/airlines`)).status).toBe(401);
    const wrong = await http(`${stack.apiUrl}/ops/v1/airlines`, { token: 'wrong-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
  });

  it('creates an airline with the default levers and lists it', async () => {
    const created = await ops('/airlines', { method: 'POST', body: { name: 'Ops Air', carrier_code: 'OP' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      airline_id: expect.any(String),
      name: 'Ops Air',
      carrier_code: 'OP',
      settings: {
        schedules_access: false,
        deadhead_auto_booking: false,
        booking_modification: false,
        swap_execution: false,
        cancellation_execution: false,
        rate_match_mode: 'STRICT',
        emit_unchanged: false,
        max_retries: 3,
      },
    });
    const list = await ops('/airlines');
    expect(list.body.airlines.map((a: { airline_id: string }) => a.airline_id)).toContain(created.body.airline_id);
  });

  it('validates the airline body (carrier code of 2 letters)', async () => {
    const res = await ops('/airlines', { method: 'POST', body: { name: 'Bad', carrier_code: 'BAD' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('/carrier_code');
  });

  it('gets and patches any subset of the settings; unknown settings and bad values are 422', async () => {
    const { airline_id } = (await ops('/airlines', { method: 'POST', body: { name: 'Lever Air', carrier_code: 'LV' } }))
      .body;
    const patched = await ops(`/airlines/${airline_id}/settings`, {
      method: 'PATCH',
      body: { deadhead_auto_booking: true, rate_match_mode: 'LOOSE', max_retries: 5 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      deadhead_auto_booking: true,
      rate_match_mode: 'LOOSE',
      max_retries: 5,
      booking_modification: false,
    });
    expect((await ops(`/airlines/${airline_id}/settings`)).body).toEqual(patched.body);
    expect(
      (await ops(`/airlines/${airline_id}/settings`, { method: 'PATCH', body: { rate_match_mode: 'SOMETIMES' } }))
        .status,
    ).toBe(422);
    expect((await ops(`/airlines/${airline_id}/settings`, { method: 'PATCH', body: { teleport: true } })).status).toBe(
      422,
    );
    expect((await ops(`/airlines/${airline_id}/settings`, { method: 'PATCH', body: {} })).status).toBe(422);
    expect((await ops(`/airlines/${airline_id}/settings`)).body).toEqual(patched.body);
    expect((await ops('/airlines/00000000-0000-0000-0000-000000000000/settings')).status).toBe(404);
    expect((await ops('/airlines/not-a-uuid/settings')).status).toBe(404);
  });

  it('creates a user whose token is shown once and stored only as a hash; a duplicate email is 409', async () => {
    const { airline_id } = (await ops('/airlines', { method: 'POST', body: { name: 'User Air', carrier_code: 'US' } }))
      .body;
    const user = await ops(`/airlines/${airline_id}/users`, { method: 'POST', body: { email: 'Planner@User.air' } });
    expect(user.status).toBe(201);
    expect(user.body).toEqual({
      user_id: expect.any(String),
      email: 'planner@user.air',
      user_token: expect.any(String),
    });
    const row = await stack.database.db
      .selectFrom('users')
      .selectAll()
      .where('user_id', '=', user.body.user_id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(user.body.user_token);
    expect(
      (await ops(`/airlines/${airline_id}/users`, { method: 'POST', body: { email: 'planner@user.air' } })).status,
    ).toBe(409);
  });

  it('upserts traveller profiles (date of birth only from here)', async () => {
    const { airline_id } = (await ops('/airlines', { method: 'POST', body: { name: 'Crew Air', carrier_code: 'CR' } }))
      .body;
    const path = `/airlines/${airline_id}/travellers/${encodeURIComponent('Jane.Doe@crew.air')}`;
    const first = await ops(path, { method: 'PUT', body: { employee_id: 'E1', first_name: 'Jane', last_name: 'Doe' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      traveller_email: 'jane.doe@crew.air',
      employee_id: 'E1',
      name: 'Jane Doe',
      date_of_birth: null,
    });
    const second = await ops(path, { method: 'PUT', body: { date_of_birth: '1985-04-12' } });
    expect(second.body).toMatchObject({ employee_id: 'E1', first_name: 'Jane', date_of_birth: '1985-04-12' });
    expect((await ops(path, { method: 'PUT', body: { date_of_birth: '12/04/1985' } })).status).toBe(422);
  });
});
