/**
 * The stack and helpers of the configuration tests (config.test.ts, config-contracts.test.ts): each file calls
 * useConfigStack with its own label, so it gets its own stack and airlines a and b.
 */
import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

export let stack: Stack;
export let a: Tenant;
export let b: Tenant;

export function useConfigStack(label: string): void {
  beforeAll(async () => {
    stack = await startStack(label);
    a = await onboard(stack, { name: 'Alpha Air', carrier: 'AL' });
    b = await onboard(stack, { name: 'Beta Air', carrier: 'BE' });
  });
  afterAll(() => stack.close());
}

export const api = (path: string, t: Tenant, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
export const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

export const standard = (property_id: string, extra: Record<string, unknown> = {}) => ({
  property_id,
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
  ...extra,
});
export const putHotels = (t: Tenant, bases: unknown[]) =>
  api('/crew/config/hotels', t, { method: 'PUT', body: { bases } });

export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}
