import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  bookingAccount,
  http,
  type HttpResult,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
} from '@crew/test-support';

// Bad input is a 4xx in the envelope, never a 500.
let stack: Stack;
let t: Tenant;
let hotelConfigId: number;
let contractId: number;

const SCOPES = 'events:read events:write schedules:read schedules:write';
const TRAVELLER = 'ada@crew.test';

beforeAll(async () => {
  stack = await startStack('input_hardening', { env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  t = await onboard(stack, { name: 'Hard Air', carrier: 'HA', scopes: SCOPES, settings: { schedules_access: true } });
  await bookingAccount(stack, t, TRAVELLER);
  const cfg = await api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: [
        {
          base_station: 'LHR',
          hotels: [
            {
              property_id: 'GDS-LHR-001',
              policy: 'STANDARD',
              standard_check_in_time: '15:00',
              standard_check_out_time: '11:00',
              buffer_minutes: 30,
            },
          ],
        },
      ],
    },
  });
  expect(cfg.status).toBe(200);
  hotelConfigId = cfg.body.bases[0].hotels[0].hotel_config_id;
  const contract = await api(`/crew/config/hotels/${hotelConfigId}/contracts`, {
    method: 'POST',
    body: { contract_number: 'K-1', contract_from: '2027-01-01', contract_to: '2027-12-31' },
  });
  expect(contract.status).toBe(201);
  contractId = contract.body.contract_id;
});
afterAll(() => stack.close());

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

function expectError(res: HttpResult, status: number, code: string) {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: { code, message: expect.any(String), details: expect.any(Array) }, status },
  });
}
/** 422 VALIDATION_FAILED naming `field`. */
function expectInvalidField(res: HttpResult, field: string, status = 422) {
  expectError(res, status, status === 422 ? 'VALIDATION_FAILED' : 'INVALID_REQUEST');
  expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

/** Strings Postgres cannot store (text and jsonb): NUL, and UTF-16 surrogates without their pair. */
const UNSTORABLE = ['crew\u0000name', 'lone \ud800 high', 'lone \udc00 low', '\ud83d'];

describe('defect 3: a roster Postgres cannot store is refused at intake', () => {
  it.each(UNSTORABLE)('%j in a crew name → 422 VALIDATION_FAILED naming /pairings/0/crew/0/name', async (bad) => {
    const roster = onePairingRoster();
    roster.pairings[0]!.crew[0]!.name = bad;
    expectInvalidField(await api('/crew/schedules', { method: 'POST', body: roster }), '/pairings/0/crew/0/name');
  });

  it('gzip-encoded too, and in any string of the roster (pairing_number, external_ref, flight_number)', async () => {
    const roster = onePairingRoster();
    roster.pairings[0]!.pairing_number = 'P\u0000';
    roster.external_ref = '\udfff';
    roster.pairings[0]!.duty_periods[0]!.legs[0]!.flight_number = 'BA\u0000';
    const res = await api('/crew/schedules', {
      method: 'POST',
      raw: gzipSync(JSON.stringify(roster)),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      '/external_ref',
      '/pairings/0/duty_periods/0/legs/0/flight_number',
      '/pairings/0/pairing_number',
    ]);
  });

  it('a well-formed pair (an emoji) and other characters are stored as sent', async () => {
    const roster = onePairingRoster();
    roster.pairings[0]!.crew[0]!.name = 'Zoë 😀 \u0001 ✈';
    const res = await api('/crew/schedules', { method: 'POST', body: roster });
    expect(res.status).toBe(202);
  });
});

describe('defect 4: unstorable strings anywhere in a body or query → 422 / 400, never 500', () => {
  it.each(UNSTORABLE)('bodies: %j', async (bad) => {
    expectInvalidField(await ops('/airlines', { method: 'POST', body: { name: bad, carrier_code: 'ZZ' } }), '/name');
    expectInvalidField(
      await ops(`/airlines/${t.airlineId}/travellers/${TRAVELLER}`, { method: 'PUT', body: { first_name: bad } }),
      '/first_name',
    );
    expectInvalidField(
      await api(`/crew/config/hotels/${hotelConfigId}/contracts`, {
        method: 'POST',
        body: { contract_number: bad, contract_from: '2027-01-01', contract_to: '2027-12-31' },
      }),
      '/contract_number',
    );
    expectInvalidField(
      await api('/crew/bookings/retry-jobs', { method: 'POST', body: { pairing_number: bad } }),
      '/pairing_number',
    );
    expectInvalidField(
      await api('/crew/bookings/retry-jobs', { method: 'POST', body: { employee_id: bad } }),
      '/employee_id',
    );
    const irop = {
      type: 'HOTEL',
      classification: 'IROP_HOTEL_EXTEND',
      source: 'IROP',
      irop_ref: bad,
      anchors: { traveller_email: TRAVELLER },
      hotel: { property_id: 'GDS-LHR-001', check_in_date: '2027-03-10', check_out_date: '2027-03-11' },
    };
    expectInvalidField(await api('/crew/bookings/request', { method: 'POST', body: irop }), '/irop_ref');
    expectInvalidField(await api('/crew/action-items', { method: 'POST', body: irop }), '/irop_ref');
  });

  it('PATCH reason and DELETE reason of an existing booking', async () => {
    const created = await api('/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        anchors: { traveller_email: TRAVELLER },
        hotel: { property_id: 'GDS-LHR-001', check_in_date: '2027-03-10', check_out_date: '2027-03-11' },
      },
    });
    expect(created.status).toBe(202);
    const id = created.body.booking_id;
    for (const bad of UNSTORABLE) {
      expectInvalidField(await api(`/crew/bookings/${id}`, { method: 'PATCH', body: { reason: bad } }), '/reason');
    }
    expectInvalidField(await api(`/crew/bookings/${id}?reason=%00`, { method: 'DELETE' }), 'query.reason', 400);
  });

  it('query values with %00 → 400 INVALID_REQUEST naming the parameter', async () => {
    for (const name of ['employee_id', 'pairing_number', 'irop_ref', 'flight_number']) {
      expectInvalidField(await api(`/crew/bookings?${name}=%00`), `query.${name}`, 400);
      expectInvalidField(await api(`/crew/bookings?${name}=a%00b`), `query.${name}`, 400);
    }
    expectInvalidField(await api('/crew/schedules?cursor=%00'), 'query.cursor', 400);
    // Huge numbers in a query: '1e400' is Infinity once coerced, which no range check may let through.
    expectInvalidField(await api('/crew/schedules?limit=1e400'), 'query.limit', 400);
    expectInvalidField(await api('/crew/bookings/retry-jobs?limit=1e400'), 'query.limit', 400);
  });

  it('path values with %00 → 404', async () => {
    expectError(
      await ops(`/airlines/${t.airlineId}/travellers/a%00b@crew.test`, { method: 'PUT', body: { first_name: 'Ada' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('/crew/config/hotels%00/versions/v1'), 404, 'NOT_FOUND');
    expectError(await api('/crew/config/hotels/versions/v1%00'), 404, 'NOT_FOUND');
  });
});

it('found by the fuzz test: a property_id of "." or ".." is an unknown property (422), not an unreachable inventory (503)', async () => {
  for (const property_id of ['.', '..']) {
    const res = await api('/crew/config/hotels', {
      method: 'PUT',
      body: {
        bases: [
          {
            base_station: 'LHR',
            hotels: [
              {
                property_id,
                policy: 'STANDARD',
                standard_check_in_time: '15:00',
                standard_check_out_time: '11:00',
                buffer_minutes: 30,
              },
            ],
          },
        ],
      },
    });
    expectError(res, 422, 'UNKNOWN_HOTEL_PROPERTY');
  }
});

describe('defect 4: integer ids out of range are unknown ids (path: 404) or invalid (body: 422)', () => {
  const HUGE = [
    '9223372036854775808',
    '9223372036854775807',
    '99999999999999999999',
    '1e400',
    '1e308',
    '9007199254740993',
  ];

  it.each(HUGE)('hotel_config_id / contract_id / request_id %s in the path → 404', async (id) => {
    expectError(await api(`/crew/config/hotels/${id}/contracts`), 404, 'NOT_FOUND');
    expectError(
      await api(`/crew/config/hotels/${id}/contracts`, {
        method: 'POST',
        body: { contract_number: 'K-2', contract_from: '2027-01-01', contract_to: '2027-12-31' },
      }),
      404,
      'NOT_FOUND',
    );
    const rates = {
      rate_periods: [
        { effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 100, currency: 'USD' } },
      ],
    };
    expectError(
      await api(`/crew/config/hotels/${hotelConfigId}/contracts/${id}/rates`, { method: 'PUT', body: rates }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api(`/crew/config/hotels/${id}/contracts/${contractId}/rates`, { method: 'PUT', body: rates }),
      404,
      'NOT_FOUND',
    );
    expectError(await api(`/crew/config/hotels/change-requests/${id}/withdraw`, { method: 'POST' }), 404, 'NOT_FOUND');
    expectError(
      await ops(`/change-requests/${id}/decide`, {
        method: 'POST',
        body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it.each(['1e308', '1e400', '9223372036854775808', '-9223372036854775809', '1.5'])(
    '{"contract_id": %s} in a body → 422 naming /contract_id',
    async (n) => {
      const res = await api('/crew/config/hotels/change-requests', {
        method: 'POST',
        raw: `{"contract_id": ${n}, "intent": "ENABLE"}`,
        headers: { 'content-type': 'application/json' },
      });
      expectInvalidField(res, '/contract_id');
    },
  );

  it('an id in range that does not exist is still a plain 404', async () => {
    expectError(await api('/crew/config/hotels/987654321/contracts'), 404, 'NOT_FOUND');
    const res = await api('/crew/config/hotels/change-requests', {
      method: 'POST',
      body: { contract_id: 987654321, intent: 'ENABLE' },
    });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('defect 4: malformed percent-encoding in a path → 400 INVALID_REQUEST on every route', () => {
  it.each([
    ['GET', '/api/v1/crew/schedules/%E0%A4%A'],
    ['GET', '/api/v1/crew/schedules/%E0%A4%A/action-items'],
    ['GET', '/api/v1/crew/bookings/%'],
    ['PATCH', '/api/v1/crew/bookings/%'],
    ['DELETE', '/api/v1/crew/bookings/%zz'],
    ['POST', '/api/v1/crew/bookings/%/retry'],
    ['GET', '/api/v1/crew/config/hotels/%/contracts'],
    ['GET', '/api/v1/crew/config/%/versions/v1'],
    ['GET', '/ops/v1/airlines/%/settings'],
    ['PUT', '/ops/v1/airlines/%/travellers/%FF%'],
  ])('%s %s', async (method, path) => {
    const res = await http(`${stack.apiUrl}${path}`, {
      method,
      token: path.startsWith('/ops') ? stack.opsToken : t.accessToken,
      ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
    });
    expectError(res, 400, 'INVALID_REQUEST');
  });

  it('also without a token (the path is refused before authentication)', async () => {
    expectError(await http(`${stack.apiUrl}/api/v1/crew/bookings/%`), 400, 'INVALID_REQUEST');
  });
});

describe('defect 7: Content-Encoding other than identity, gzip and deflate → 415', () => {
  const company = JSON.stringify({ crew_booker_email: 'booker@air.test' });
  it.each([
    ['br (really brotli)', 'br', brotliCompressSync(company)],
    ['br (not brotli)', 'br', Buffer.from(company)],
    ['compress', 'compress', Buffer.from(company)],
    ['gzip, br', 'gzip, br', gzipSync(company)],
  ])('PUT /crew/config/company with %s → 415 UNSUPPORTED_MEDIA_TYPE', async (_label, encoding, raw) => {
    const res = await api('/crew/config/company', {
      method: 'PUT',
      raw,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('POST /crew/schedules with br → 415 too', async () => {
    const res = await api('/crew/schedules', {
      method: 'POST',
      raw: brotliCompressSync(JSON.stringify(onePairingRoster())),
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('gzip and deflate are still accepted', async () => {
    expect(
      (
        await api('/crew/config/company', {
          method: 'PUT',
          raw: gzipSync(company),
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api('/crew/config/company', {
          method: 'PUT',
          raw: Buffer.from(company),
          headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
        })
      ).status,
    ).toBe(200);
  });
});
