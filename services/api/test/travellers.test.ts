import { sql } from '@crew/db';
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
let a: Tenant;
let b: Tenant;
const SCOPES = 'events:read events:write schedules:read schedules:write';

beforeAll(async () => {
  stack = await startStack('travellers', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
  a = await onboard(stack, { name: 'Alpha Air', carrier: 'AL', scopes: SCOPES, settings: { schedules_access: true } });
  b = await onboard(stack, { name: 'Beta Air', carrier: 'BE', scopes: SCOPES, settings: { schedules_access: true } });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const put = (t: Tenant, employeeId: string, body: unknown) =>
  api(t, `/crew/travellers/${employeeId}`, { method: 'PUT', body });
const get = (t: Tenant, employeeId: string) => api(t, `/crew/travellers/${employeeId}`);
const row = async (airlineId: string, employeeId: string) =>
  (
    await sql<
      Record<string, unknown>
    >`select * from travellers where airline_id = ${airlineId} and employee_id = ${employeeId}`.execute(
      stack.database.db,
    )
  ).rows[0]!;

const FULL = {
  traveller_email: 'Ana.Silva@Alpha.test',
  first_name: 'Ana Sofía',
  last_name: "D'Ávila-Łukasz",
  date_of_birth: '1988-04-12',
  gender: 'f',
  title: 'ms',
  phone_number: '+447700900123',
  identity_document: { type: 'PASSPORT', number: 'X98765432', issuing_country: 'PT', expires_on: '2031-06-30' },
};

const flightRequest = (email: string, employeeId?: string) => ({
  type: 'FLIGHT',
  classification: 'NEW_DEADHEAD',
  anchors: { traveller_email: email, duty_date: '2027-03-10', ...(employeeId ? { employee_id: employeeId } : {}) },
  flight: { from_airport: 'LHR', to_airport: 'JFK', depart_date: '2027-03-10' },
});

describe('PUT and GET /crew/travellers/{employee_id}', () => {
  it('creates (201), reads, updates (200): an omitted field keeps its value, null clears it; the document number is masked', async () => {
    const created = await put(a, 'A100', FULL);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      employee_id: 'A100',
      traveller_email: 'ana.silva@alpha.test',
      first_name: 'Ana Sofía',
      name: "Ana Sofía D'Ávila-Łukasz",
      date_of_birth: '1988-04-12',
      gender: 'f',
      identity_document: { type: 'PASSPORT', number: '*****5432', issuing_country: 'PT', expires_on: '2031-06-30' },
    });
    expect((await get(a, 'A100')).body).toEqual(created.body);
    const updated = await put(a, 'A100', { phone_number: '+351912345678', title: null, gender: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      phone_number: '+351912345678',
      title: null,
      gender: null,
      date_of_birth: '1988-04-12',
      first_name: 'Ana Sofía',
    });
    expect((await put(a, 'A100', { identity_document: null, date_of_birth: null })).body).toMatchObject({
      identity_document: null,
      date_of_birth: null,
    });
    expect((await row(a.airlineId, 'A100')).has_date_of_birth).toBe(false);
  });

  it('names every bad field with 422 VALIDATION_FAILED, and stores nothing', async () => {
    await put(a, 'A200', { traveller_email: 'bo@alpha.test', first_name: 'Bo', date_of_birth: '1990-01-01' });
    const before = (await get(a, 'A200')).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ first_name: 'Ana3' }, '/first_name'],
      [{ first_name: 'Ærø' }, '/first_name'],
      [{ last_name: 'Иванова' }, '/last_name'],
      [{ last_name: 'Abcdefghijklmnopqrstu' }, '/last_name'],
      [{ last_name: "'-" }, '/last_name'],
      [{ phone_number: '07700900123' }, '/phone_number'],
      [{ phone_number: '+44 7700 900123' }, '/phone_number'],
      [{ date_of_birth: '12/04/1988' }, '/date_of_birth'],
      [{ date_of_birth: '2027-03-01' }, '/date_of_birth'],
      [{ gender: 'x' }, '/gender'],
      [{ title: 'sir' }, '/title'],
      [
        { identity_document: { ...FULL.identity_document, issuing_country: 'XX' } },
        '/identity_document/issuing_country',
      ],
      [{ identity_document: { ...FULL.identity_document, expires_on: '2026-12-31' } }, '/identity_document/expires_on'],
      [{ identity_document: { ...FULL.identity_document, number: 'AB-12' } }, '/identity_document/number'],
      [{ identity_document: { ...FULL.identity_document, type: 'LIBRARY_CARD' } }, '/identity_document/type'],
      [{ identity_document: { type: 'PASSPORT' } }, '/identity_document/number'],
      [{ traveller_email: null }, '/traveller_email'],
      [{ nickname: 'Bobby' }, '/nickname'],
    ];
    for (const [body, field] of cases) {
      const res = await put(a, 'A200', body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 422,
        code: 'VALIDATION_FAILED',
      });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // Several bad fields at once: each is named.
    const many = await put(a, 'A200', { first_name: '1', phone_number: 'x', gender: 'q' });
    expect(many.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['/first_name', '/phone_number', '/gender']),
    );
    expect((await get(a, 'A200')).body).toEqual(before);
    const fresh = await put(a, 'A201', { first_name: 'Cy' });
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.details).toEqual([
      { field: '/traveller_email', issue: expect.stringContaining('required') },
    ]);
    expect((await get(a, 'A201')).status).toBe(404);
  });

  it("409 for another employee's e-mail; 404 for an unknown employee and for another airline's", async () => {
    await put(a, 'A300', { traveller_email: 'cy@alpha.test' });
    await put(a, 'A301', { traveller_email: 'di@alpha.test' });
    const taken = await put(a, 'A301', { traveller_email: 'cy@alpha.test' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');
    expect((await put(a, 'A302', { traveller_email: 'CY@alpha.test' })).status).toBe(409);
    expect((await get(a, 'A301')).body.traveller_email).toBe('di@alpha.test');
    // A new e-mail for the same employee moves the profile.
    expect((await put(a, 'A301', { traveller_email: 'di.new@alpha.test' })).body.traveller_email).toBe(
      'di.new@alpha.test',
    );
    expect((await get(a, 'NOBODY')).status).toBe(404);
    expect((await get(b, 'A300')).status).toBe(404);
    expect((await api(b, '/crew/travellers/A300/audit')).status).toBe(404);
    // The other airline's employee of the same id is its own profile.
    expect((await put(b, 'A300', { traveller_email: 'cy@alpha.test' })).status).toBe(201);
    expect((await get(a, 'A300')).body.traveller_email).toBe('cy@alpha.test');
  });

  it('needs events:write to PUT and events:read to GET', async () => {
    const reader = await onboard(stack, { name: 'Read Air', carrier: 'RD', scopes: 'events:read' });
    const res = await put(reader, 'R1', { traveller_email: 'r1@read.test' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await get(reader, 'R1')).status).toBe(404);
  });
});

describe('personal fields at rest', () => {
  it('are sealed: no date of birth, phone or document number in the row; a sealed text copied to another airline reads as absent', async () => {
    expect((await put(a, 'A400', { ...FULL, traveller_email: 'a400@alpha.test' })).status).toBe(201);
    const stored = await row(a.airlineId, 'A400');
    const text = JSON.stringify(stored);
    for (const secret of ['1988-04-12', '1988', '+447700900123', '7700900123', 'X98765432', 'PASSPORT', '"ms"'])
      expect(text).not.toContain(secret);
    expect(stored).toMatchObject({
      date_of_birth: null,
      has_date_of_birth: true,
      personal_sealed: expect.stringMatching(/^v2\./),
    });
    // Another airline's row with A's sealed text: it does not open there (the airline is bound in).
    await put(b, 'B400', { traveller_email: 'copy@beta.test', first_name: 'Copy' });
    await sql`update travellers set personal_sealed = ${stored.personal_sealed}, has_date_of_birth = true where airline_id = ${b.airlineId} and employee_id = 'B400'`.execute(
      stack.database.db,
    );
    const copied = await get(b, 'B400');
    expect(copied.status).toBe(200);
    expect(copied.body).toMatchObject({
      first_name: 'Copy',
      date_of_birth: null,
      phone_number: null,
      identity_document: null,
    });
    const flight = await api(b, '/crew/bookings/request', { method: 'POST', body: flightRequest('copy@beta.test') });
    expect(flight.status).toBe(422);
    expect(flight.body.error.code).toBe('DATE_OF_BIRTH_REQUIRED');
    // A PUT there starts afresh under B's own seal.
    expect((await put(b, 'B400', { date_of_birth: '1970-01-01' })).body).toMatchObject({
      date_of_birth: '1970-01-01',
      phone_number: null,
    });
  });

  it('records every change in the audit: who, when, which fields, never the values', async () => {
    expect((await put(a, 'A500', { ...FULL, traveller_email: 'a500@alpha.test' })).status).toBe(201);
    await put(a, 'A500', { phone_number: '+447700900999', first_name: 'Ana' });
    await put(a, 'A500', { phone_number: '+447700900999' });
    const audit = (await api(a, '/crew/travellers/A500/audit')).body.audit;
    expect(audit).toHaveLength(2);
    expect(audit[0]).toEqual({
      at: expect.any(String),
      actor: a.email,
      action: 'UPDATE',
      fields: ['first_name', 'phone_number'],
    });
    expect(audit[1]).toMatchObject({ actor: a.email, action: 'CREATE' });
    expect(audit[1].fields).toEqual(
      expect.arrayContaining(['traveller_email', 'employee_id', 'date_of_birth', 'identity_document']),
    );
    const rows = await sql`select * from traveller_audit where airline_id = ${a.airlineId}`.execute(stack.database.db);
    expect(JSON.stringify(rows.rows)).not.toMatch(/1988-04-12|7700900|X98765432/);
  });
});

describe('the date of birth a flight needs', () => {
  it('the 422 names date_of_birth and the PUT that sets it, with the employee id', async () => {
    await put(a, 'A600', { traveller_email: 'nodob@alpha.test', first_name: 'No' });
    const res = await api(a, '/crew/bookings/request', { method: 'POST', body: flightRequest('nodob@alpha.test') });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('DATE_OF_BIRTH_REQUIRED');
    expect(res.body.error.message).toContain('date_of_birth');
    expect(res.body.error.message).toContain('PUT /api/v1/crew/travellers/A600');
    expect(res.body.error.details).toContainEqual({
      field: 'date_of_birth',
      issue: expect.stringContaining('set it with PUT /api/v1/crew/travellers/A600'),
    });
    await put(a, 'A600', { date_of_birth: '1980-05-05' });
    const again = await api(a, '/crew/bookings/request', { method: 'POST', body: flightRequest('nodob@alpha.test') });
    expect(again.status).toBe(202);
  });

  it('the operator call keeps its body and answer, writes sealed and is audited as operator; a legacy plain date still reads', async () => {
    const path = `${stack.apiUrl}/ops/v1/airlines/${a.airlineId}/travellers/${encodeURIComponent('op@alpha.test')}`;
    const res = await http(path, {
      method: 'PUT',
      token: stack.opsToken,
      body: { employee_id: 'A700', first_name: 'Op', last_name: 'Erator', date_of_birth: '1979-09-09' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      traveller_email: 'op@alpha.test',
      employee_id: 'A700',
      first_name: 'Op',
      last_name: 'Erator',
      name: 'Op Erator',
      date_of_birth: '1979-09-09',
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(await row(a.airlineId, 'A700'))).not.toContain('1979-09-09');
    expect((await get(a, 'A700')).body.date_of_birth).toBe('1979-09-09');
    expect((await api(a, '/crew/travellers/A700/audit')).body.audit[0]).toMatchObject({
      actor: 'operator',
      action: 'CREATE',
    });
    // A row from before sealing: plain date_of_birth, nothing sealed.
    await sql`update travellers set personal_sealed = null, date_of_birth = '1975-02-02' where airline_id = ${a.airlineId} and employee_id = 'A700'`.execute(
      stack.database.db,
    );
    expect((await get(a, 'A700')).body.date_of_birth).toBe('1975-02-02');
    expect((await http(path, { method: 'PUT', token: stack.opsToken, body: {} })).body.date_of_birth).toBe(
      '1975-02-02',
    );
    // Any write moves it into the sealed text.
    expect(await row(a.airlineId, 'A700')).toMatchObject({
      date_of_birth: null,
      personal_sealed: expect.stringMatching(/^v2\./),
      has_date_of_birth: true,
    });
    expect((await get(a, 'A700')).body.date_of_birth).toBe('1975-02-02');
  });

  it('a roster deadhead auto-books for a traveller whose date of birth the airline set (the engine opens it)', async () => {
    const t = await onboard(stack, {
      name: 'Engine Air',
      carrier: 'EN',
      scopes: SCOPES,
      settings: { schedules_access: true, deadhead_auto_booking: true },
    });
    expect(
      (await api(t, '/crew/config/company', { method: 'PUT', body: { crew_booker_email: 'booker@engine.test' } }))
        .status,
    ).toBe(200);
    const email = 'crew.dh@engine.test';
    expect(
      (
        await put(t, 'E1', {
          traveller_email: email,
          first_name: 'Dee',
          last_name: 'Head',
          date_of_birth: '1984-03-03',
        })
      ).status,
    ).toBe(201);
    const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email, employee: 'E1' }) });
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
    const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find(
      (i: { type: string }) => i.type === 'FLIGHT',
    );
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED', auto_eligible: true });
    const reservations = (
      await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)
    ).body.reservations;
    expect(reservations.some((r: { kind: string }) => r.kind === 'flight')).toBe(true);
  });
});
