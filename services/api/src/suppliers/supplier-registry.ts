import { supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config } from '@crew/platform';
import { createSupplierRegistry, type SupplierRegistry, type Suppliers } from '@crew/suppliers';

/**
 * Deadline of one Duffel call from a request handler: a live search answers the airline's caller, who
 * would rather see a 503 and retry than wait on a slow supplier.
 */
const DUFFEL_TIMEOUT_MS = 20_000;

/**
 * The api's registry, built over the same stored settings as the worker's: searches, offer look-ups and
 * status refreshes go through it; bookings themselves run in the worker.
 */
export function apiSupplierRegistry(db: Db, config: Config, sandbox: Suppliers): SupplierRegistry {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  const deadlines = { flightsTimeoutMs: DUFFEL_TIMEOUT_MS, staysTimeoutMs: DUFFEL_TIMEOUT_MS };
  return createSupplierRegistry({
    sandbox,
    open: (sealed, airlineId) => keyring.open(sealed, airlineId),
    readSetting: (airlineId) => supplierSettingsRepo.findSupplierSettings(db, airlineId),
    duffel: { basePath: config.duffelApiUrl, ...deadlines },
  });
}
