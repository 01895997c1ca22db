// PLACEHOLDER until the Duffel client lands: replaced by duffel/client.ts's checkDuffelToken.
import { Duffel, DuffelError } from '@duffel/api';
import { SupplierError } from '../errors';

export async function checkDuffelToken(basePath: string, token: string): Promise<{ live_mode: boolean }> {
  const client = new Duffel({ token, basePath });
  try {
    await client.airlines.list({ limit: 1 });
  } catch (err) {
    const status = err instanceof DuffelError ? err.status : undefined;
    if (status === 401 || status === 403) throw new SupplierError('refusal', 'UNAUTHORIZED', 'Duffel refused the access token', { operation: 'duffel.check_token', status });
    throw new SupplierError('transient', 'SUPPLIER_UNREACHABLE', 'Duffel could not be reached', { operation: 'duffel.check_token', ...(status ? { status } : {}) });
  }
  return { live_mode: token.startsWith('duffel_live_') };
}
