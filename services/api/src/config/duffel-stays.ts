import { supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config } from '@crew/platform';
import { createDuffelClient, DuffelHotelSupplier } from '@crew/suppliers';
import type { AirlineStays } from './hotels.service';

/** A property lookup waits this long for Duffel: a hotel config PUT is an operator's call, not a hot path. */
const LOOKUP_TIMEOUT_MS = 10_000;

/**
 * The airline's Duffel Stays from its stored supplier setting (token opened with SUPPLIER_CREDENTIALS_KEY),
 * for the hotel config's channel lookup. Built per call: a config PUT is rare, and a changed token applies at once.
 */
export function airlineStays(db: Db, config: Config): AirlineStays {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  return async (airlineId) => {
    const row = await supplierSettingsRepo.findSupplierSettings(db, airlineId);
    if (!row?.duffel_token_sealed || !row.hotels.includes('DUFFEL')) return null;
    const token = keyring.open(row.duffel_token_sealed, airlineId);
    return new DuffelHotelSupplier(createDuffelClient({ token, basePath: config.duffelApiUrl }), { liveMode: row.duffel_live_mode ?? false, timeoutMs: LOOKUP_TIMEOUT_MS });
  };
}
