import { supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config } from '@crew/platform';
import { createSupplierRegistry, type SupplierRegistry, type Suppliers } from '@crew/suppliers';

/** Deadline of one Duffel call; an order call past it is an unknown outcome, looked up before ordering again. */
const DUFFEL_TIMEOUT_MS = 20_000;
/** Deadline of each Duffel Stays call: a search with its rates can take several seconds at Duffel. */
const DUFFEL_STAYS_TIMEOUT_MS = 30_000;

/** Deadlines of the calls to an airline's Duffel account, and how long a setting read is reused (tests shorten all). */
export interface RegistryTimings {
  /** Duffel flights (default 20 s). */
  flightsMs?: number | undefined;
  /** Duffel Stays (default 30 s). */
  staysMs?: number | undefined;
  /** An airline's supplier setting, once read, is reused this long (default the registry's, 5 s). */
  settingsTtlMs?: number | undefined;
}

/** The worker's registry: each airline's stored setting, opened with SUPPLIER_CREDENTIALS_KEY. */
export function supplierRegistry(
  db: Db,
  config: Config,
  sandbox: Suppliers,
  timeouts: RegistryTimings = {},
): SupplierRegistry {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  const readSetting = (airlineId: string) => supplierSettingsRepo.findSupplierSettings(db, airlineId);
  const duffel = {
    basePath: config.duffelApiUrl,
    flightsTimeoutMs: timeouts.flightsMs ?? DUFFEL_TIMEOUT_MS,
    staysTimeoutMs: timeouts.staysMs ?? DUFFEL_STAYS_TIMEOUT_MS,
  };
  return createSupplierRegistry({
    sandbox,
    open: (sealed, airlineId) => keyring.open(sealed, airlineId),
    readSetting,
    duffel,
    ...(timeouts.settingsTtlMs === undefined ? {} : { ttlMs: timeouts.settingsTtlMs }),
  });
}
