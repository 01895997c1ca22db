import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack('request_log');
  tenant = await onboard(stack);
});
afterAll(() => stack.close());

/** How often a key occurs in a raw JSON line (JSON.parse would keep only the last of duplicates). */
const keyCount = (line: string, key: string) => line.split(`"${key}":`).length - 1;

describe('api request log lines', () => {
  it('carry request_id once, with the fields the route bound (airline, booking) beside it', async () => {
    const given = `req-${Date.now()}`;
    const before = stack.logLines.length;
    const api = `${stack.apiUrl}/api/v1`;
    // Bound fields (airline_id, client_id; booking_id), none bound (401), an error status (404), a given X-Request-Id.
    await http(`${api}/crew/config/company`, { token: tenant.accessToken, headers: { 'x-request-id': given } });
    await http(`${api}/crew/bookings/00000000-0000-4000-8000-000000000000`, {
      method: 'DELETE',
      token: tenant.accessToken,
    });
    await http(`${api}/crew/config/company`);
    await http(`${api}/crew/no-such-route`, { token: tenant.accessToken });

    const requestLines = stack.logLines
      .slice(before)
      .filter((l) => l.includes('"service":"api"') && l.includes('"responseTime":'));
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines)
      expect({ line, request_id: keyCount(line, 'request_id') }).toEqual({ line, request_id: 1 });

    const company = requestLines.map((l) => JSON.parse(l)).find((l) => l.request_id === given);
    expect(company).toMatchObject({ airline_id: tenant.airlineId, req: { url: '/api/v1/crew/config/company' } });
    expect(requestLines.some((l) => l.includes('"booking_id":"00000000-0000-4000-8000-000000000000"'))).toBe(true);
  });
});
