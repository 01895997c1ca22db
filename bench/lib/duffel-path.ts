/**
 * The Duffel path of bench:urgency (BENCH_SUPPLIER=duffel|compare): an airline's hotels through the sandbox's
 * Duffel dialect (supplier order `hotels: ["DUFFEL"]`, a test token), contracts at the Stays accommodation of
 * each station with rate periods that match its base amounts night by night (so STRICT confirms, as the
 * sandbox's negotiated rate does), or (BENCH_WORK=deadheads) its flights through Duffel Air (`flights:
 * ["DUFFEL"]`); the traveller profiles Stays and Air need (title, gender, E.164 phone; Air also a date of
 * birth), the sim's call counters and a floor of the same number of supplier round trips at the same latency.
 */
import { performance } from 'node:perf_hooks';
import { addDays } from '@crew/engine';
import { accommodationsAt, nightlyBase } from '@crew/supplier-sandbox';
import { expectStatus, http, type StackUrls, type Tenant } from './client';

export type SupplierPath = 'sandbox' | 'duffel';

/** Rate periods of an accommodation from `from` to `to` (inclusive): one period per run of nights at one base amount. */
export function stayRatePeriods(station: string, from: string, to: string) {
  const acc = accommodationsAt(station)[0];
  if (!acc) throw new Error(`no Stays accommodation at ${station}`);
  const periods: { effective_from: string; effective_to: string; rate: { amount: number; currency: string } }[] = [];
  for (let night = from; night <= to; night = addDays(night, 1)) {
    const amount = nightlyBase(acc, night);
    const last = periods[periods.length - 1];
    if (last && last.rate.amount === amount) last.effective_to = night;
    else periods.push({ effective_from: night, effective_to: night, rate: { amount, currency: acc.currency } });
  }
  return { propertyId: acc.id, periods };
}

/** The airline's supplier order (operator setting): `duffel` for one list, the sandbox for the other, and the token. */
async function putSupplierOrder(urls: StackUrls, tenant: Tenant, token: string, duffel: 'flights' | 'hotels') {
  const res = await http(`${urls.apiUrl}/ops/v1/airlines/${tenant.airlineId}/suppliers`, {
    method: 'PUT',
    token: urls.opsToken,
    body: {
      flights: [duffel === 'flights' ? 'DUFFEL' : 'SANDBOX'],
      hotels: [duffel === 'hotels' ? 'DUFFEL' : 'SANDBOX'],
      duffel: { access_token: token },
    },
  });
  expectStatus(res, 200, `PUT suppliers (DUFFEL ${duffel})`);
}

/** The airline's hotels through Duffel only (flights stay at the sandbox; the hotel rosters have no deadheads). */
export const useDuffelHotels = (urls: StackUrls, tenant: Tenant, token: string) =>
  putSupplierOrder(urls, tenant, token, 'hotels');

/** The airline's flights through Duffel Air only (hotels stay at the sandbox; the deadhead rosters have no layovers). */
export const useDuffelFlights = (urls: StackUrls, tenant: Tenant, token: string) =>
  putSupplierOrder(urls, tenant, token, 'flights');

interface CrewLike {
  employee_id: string;
  name: string;
  traveller_email: string;
}

/** A passport-style name part: letters only, at most 20 characters. */
const namePart = (s: string) => s.replace(/[^A-Za-z]/g, '').slice(0, 20) || 'Crew';

/** A date of birth per profile index: adults born 1960-1999. */
const bornOn = (i: number) =>
  `${1960 + (i % 40)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;

/**
 * Traveller profiles with title, gender and an E.164 phone for every crew member, `parallel` PUTs at a time;
 * with `dateOfBirth` also a date of birth (a flight booking needs one: the engine, and Duffel Air's `born_on`).
 */
export async function putProfiles(
  tenant: Tenant,
  crew: CrewLike[],
  { dateOfBirth = false, parallel = 8 }: { dateOfBirth?: boolean; parallel?: number } = {},
): Promise<number> {
  const unique = [...new Map(crew.map((c) => [c.employee_id, c])).values()];
  let next = 0;
  const one = async () => {
    for (let i = next++; i < unique.length; i = next++) {
      const c = unique[i]!;
      const [first = 'Crew', ...rest] = c.name.trim().split(/\s+/);
      const res = await tenant.api(`/crew/travellers/${encodeURIComponent(c.employee_id)}`, {
        method: 'PUT',
        body: {
          traveller_email: c.traveller_email,
          first_name: namePart(first),
          last_name: namePart(rest.join('')),
          title: i % 2 ? 'ms' : 'mr',
          gender: i % 2 ? 'f' : 'm',
          phone_number: `+4477009${String(i % 1_000_000).padStart(6, '0')}`,
          ...(dateOfBirth ? { date_of_birth: bornOn(i) } : {}),
        },
      });
      if (res.status !== 200 && res.status !== 201) expectStatus(res, 201, `PUT /crew/travellers/${c.employee_id}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, one));
  return unique.length;
}

/** The supplier calls the sandbox received (GDS, by operation) and its Duffel dialect received (every token, by operation). */
export async function supplierCalls(sandboxUrl: string): Promise<Record<string, number>> {
  const gds = await http(`${sandboxUrl}/_control/calls`);
  const duffel = await http(`${sandboxUrl}/_control/duffel/calls`);
  expectStatus(gds, 200, 'GET /_control/calls');
  expectStatus(duffel, 200, 'GET /_control/duffel/calls');
  const out: Record<string, number> = {};
  for (const [op, n] of Object.entries(gds.body.calls as Record<string, number>)) out[`sandbox ${op}`] = n;
  for (const [op, n] of Object.entries(duffel.body.calls as Record<string, number>)) out[`duffel ${op}`] = n;
  return out;
}

export function callDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [op, n] of Object.entries(after)) if (n - (before[op] ?? 0) > 0) out[op] = n - (before[op] ?? 0);
  return out;
}

/**
 * The floor of k supplier round trips at the sandbox's latency, with nothing else around them: one cheap read
 * of the path's dialect (the GDS `GET /hotels/{id}`, Duffel's `GET /stays/accommodation/{id}`) k times in a row.
 * `chainMs`: the least of three single chains; `ratePerS`: the best of three rounds of `parallel` chains side by
 * side, each chain repeated `repeat` times (k round trips per "booking").
 */
export async function supplierFloor(
  sandboxUrl: string,
  path: SupplierPath,
  k: number,
  parallel: number,
  repeat = 2,
): Promise<{ chainMs: number; ratePerS: number; chains: number[]; rates: number[] }> {
  const token = 'duffel_test_bench_floor';
  const call = async () => {
    const res =
      path === 'sandbox'
        ? await http(`${sandboxUrl}/hotels/GDS-JFK-001`)
        : await fetch(`${sandboxUrl}/duffel/stays/accommodation/${accommodationsAt('JFK')[0]!.id}`, {
            headers: { authorization: `Bearer ${token}`, 'duffel-version': 'v2' },
          }).then(async (r) => ({ status: r.status, text: await r.text() }));
    if (res.status !== 200) throw new Error(`floor call: ${res.status}`);
  };
  const chain = async () => {
    for (let i = 0; i < k; i++) await call();
  };
  const chains: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await chain();
    chains.push(performance.now() - t);
  }
  const rates: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let r = 0; r < repeat; r++) await chain();
      }),
    );
    rates.push((parallel * repeat) / ((performance.now() - t) / 1000));
  }
  return { chainMs: Math.min(...chains), ratePerS: Math.max(...rates), chains, rates };
}
