import type { Money } from '@crew/contracts';
import { request, type HttpResult, type Tenant } from './client';
import type { Stack } from './stack';

/** A STANDARD hotel policy that accepts the test rosters' layovers (check-in 15:00, check-out by 11:00). */
export const STANDARD_TERMS = {
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
} as const;

export interface ContractOptions {
  terms?: Record<string, unknown>;
  rate?: Money;
  from?: string;
  to?: string;
  /** The property configured at a station (default GDS-<STATION>-001). */
  propertyId?: (station: string) => string;
  /** The contracts' negotiated-rate access code (none by default). */
  rateAccessCode?: string;
}

async function ok<T>(res: Promise<HttpResult<T>>, what: string, status = 200): Promise<HttpResult<T>> {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
}

/**
 * Makes the given stations' layovers auto-bookable, the way an airline and the operator do it over HTTP:
 * hotel config (GDS-<STATION>-001 per station), a contract with one rate period, an ENABLE change request
 * and the operator's approval.
 */
export async function contractStations(
  stack: Stack,
  t: Tenant,
  stations: string[],
  o: ContractOptions = {},
): Promise<void> {
  const token = t.accessToken;
  const from = o.from ?? '2027-01-01';
  const to = o.to ?? '2027-12-31';
  const cfg = await ok(
    request(stack, 'PUT /api/v1/crew/config/hotels', {
      token,
      body: {
        bases: stations.map((s) => ({
          base_station: s,
          hotels: [{ property_id: o.propertyId?.(s) ?? `GDS-${s}-001`, ...(o.terms ?? STANDARD_TERMS) }],
        })),
      },
    }),
    'hotel config',
  );
  for (const base of cfg.body.bases) {
    const hotelId = String(base.hotels[0]!.hotel_config_id);
    const contract = await ok(
      request(stack, 'POST /api/v1/crew/config/hotels/:hotel_config_id/contracts', {
        token,
        params: { hotel_config_id: hotelId },
        body: {
          contract_number: `K-${base.base_station}`,
          contract_from: from,
          contract_to: to,
          ...(o.rateAccessCode ? { rate_access_code: o.rateAccessCode } : {}),
        },
      }),
      'contract',
      201,
    );
    const rate = o.rate ?? { amount: 180, currency: 'USD' };
    const contractId = String(contract.body.contract_id);
    await ok(
      request(stack, 'PUT /api/v1/crew/config/hotels/:hotel_config_id/contracts/:contract_id/rates', {
        token,
        params: { hotel_config_id: hotelId, contract_id: contractId },
        body: { rate_periods: [{ effective_from: from, effective_to: to, rate }] },
      }),
      'rates',
    );
    const req = await ok(
      request(stack, 'POST /api/v1/crew/config/hotels/change-requests', {
        token,
        body: { contract_id: contract.body.contract_id, intent: 'ENABLE' },
      }),
      'change request',
      201,
    );
    await ok(
      request(stack, 'POST /ops/v1/change-requests/:request_id/decide', {
        token: stack.opsToken,
        params: { request_id: String(req.body.request_id) },
        body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
      }),
      'decision',
    );
  }
}

/** crew_booker_email set, and a traveller profile (with a date of birth unless `dob` is false). */
export async function bookingAccount(stack: Stack, t: Tenant, travellerEmail: string, dob = true): Promise<void> {
  await ok(
    request(stack, 'PUT /api/v1/crew/config/company', {
      token: t.accessToken,
      body: { crew_booker_email: 'booker@air.test' },
    }),
    'company config',
  );
  await ok(
    request(stack, 'PUT /ops/v1/airlines/:airline_id/travellers/:traveller_email', {
      token: stack.opsToken,
      params: { airline_id: t.airlineId, traveller_email: travellerEmail },
      body: {
        employee_id: 'E1',
        first_name: 'Ada',
        last_name: 'Lovelace',
        ...(dob ? { date_of_birth: '1985-04-12' } : {}),
      },
    }),
    'traveller',
  );
}
