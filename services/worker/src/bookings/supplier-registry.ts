import { supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config } from '@crew/platform';
import { createDuffelClient, createSupplierRegistry, DuffelFlightSupplier, type SupplierRegistry, type Suppliers } from '@crew/suppliers';

/**
 * Deadline of one Duffel call from a booking task. An order call that runs out of it is an unknown outcome:
 * the task ends FAILED and its retry looks the order up by our reference before ordering again.
 */
const DUFFEL_TIMEOUT_MS = 30_000;

/** The worker's registry: each airline's stored setting, opened with SUPPLIER_CREDENTIALS_KEY. */
export function supplierRegistry(db: Db, config: Config, sandbox: Suppliers): SupplierRegistry {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  return createSupplierRegistry({
    sandbox,
    open: (sealed, airlineId) => keyring.open(sealed, airlineId),
    readSetting: (airlineId) => supplierSettingsRepo.findSupplierSettings(db, airlineId),
    duffelFlights: (c) => new DuffelFlightSupplier(createDuffelClient({ token: c.token, basePath: config.duffelApiUrl }), { liveMode: c.live_mode, timeoutMs: DUFFEL_TIMEOUT_MS }),
  });
}
