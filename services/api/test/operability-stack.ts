/**
 * The stack of the operability tests (operability.test.ts, openapi-document.test.ts): each file calls
 * useOperabilityStack with its own label, so it gets its own stack, tenant and served OpenAPI document.
 */
import type { ApiDeps } from '../src';
import type { OpenApiDocument } from '../src/operability';
import { apiDepsOf, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

export let stack: Stack;
export let tenant: Tenant;
export let doc: OpenApiDocument;
export let deps: ApiDeps;

export function useOperabilityStack(label: string): void {
  beforeAll(async () => {
    stack = await startStack(label);
    tenant = await onboard(stack);
    deps = apiDepsOf(stack);
    const res = await http<OpenApiDocument>(`${stack.apiUrl}/openapi.json`);
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => stack.close());
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}
