import type { Money } from '@crew/contracts';
import { http, type Tenant } from './client';
import type { Stack } from './stack';

/** A STANDARD hotel policy that accepts the test rosters' layovers (check-in 15:00, check-out by 11:00). */
export const STANDARD_TERMS = { policy: 'STANDARD', standard_check_in_time: '15:00', standard_check_out_time: '11:00', buffer_minutes: 30 } as const;

export interface ContractOptions {
  terms?: Record<string, unknown>;
  rate?: Money;
  from?: string;
  to?: string;
}

async function ok(res: Promise<{ status: number; text: string }>, what: string, status = 200) {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r as { status: number; text: string; body: any };
}

/**
 * Makes the given stations' layovers auto-bookable, the way an airline and the operator do it over HTTP:
 * hotel config (GDS-<STATION>-001 per station), a contract with one rate period, an ENABLE change request
 * and the operator's approval.
 */
export async function contractStations(stack: Stack, t: Tenant, stations: string[], o: ContractOptions = {}): Promise<void> {
  const api = (path: string, init: Parameters<typeof http>[1]) => http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  const from = o.from ?? '2027-01-01';
  const to = o.to ?? '2027-12-31';
  const cfg = await ok(api('/crew/config/hotels', { method: 'PUT', body: { bases: stations.map((s) => ({ base_station: s, hotels: [{ property_id: `GDS-${s}-001`, ...(o.terms ?? STANDARD_TERMS) }] })) } }), 'hotel config');
  for (const base of cfg.body.bases) {
    const hotelId = base.hotels[0].hotel_config_id;
    const contract = await ok(api(`/crew/config/hotels/${hotelId}/contracts`, { method: 'POST', body: { contract_number: `K-${base.base_station}`, contract_from: from, contract_to: to } }), 'contract', 201);
    const rate = o.rate ?? { amount: 180, currency: 'USD' };
    await ok(api(`/crew/config/hotels/${hotelId}/contracts/${contract.body.contract_id}/rates`, { method: 'PUT', body: { rate_periods: [{ effective_from: from, effective_to: to, rate }] } }), 'rates');
    const req = await ok(api('/crew/config/hotels/change-requests', { method: 'POST', body: { contract_id: contract.body.contract_id, intent: 'ENABLE' } }), 'change request', 201);
    await ok(http(`${stack.apiUrl}/ops/v1/change-requests/${req.body.request_id}/decide`, { method: 'POST', token: stack.opsToken, body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' } }), 'decision');
  }
}

/** crew_booker_email set, and a traveller profile (with a date of birth unless `dob` is false). */
export async function bookingAccount(stack: Stack, t: Tenant, travellerEmail: string, dob = true): Promise<void> {
  await ok(http(`${stack.apiUrl}/api/v1/crew/config/company`, { method: 'PUT', token: t.accessToken, body: { crew_booker_email: 'booker@air.test' } }), 'company config');
  await ok(
    http(`${stack.apiUrl}/ops/v1/airlines/${t.airlineId}/travellers/${encodeURIComponent(travellerEmail)}`, {
      method: 'PUT',
      token: stack.opsToken,
      body: { employee_id: 'E1', first_name: 'Ada', last_name: 'Lovelace', ...(dob ? { date_of_birth: '1985-04-12' } : {}) },
    }),
    'traveller',
  );
}
