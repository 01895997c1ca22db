import { supplierSettingsRepo, type Db } from '@crew/db';
import { Keyring, type Config } from '@crew/platform';
import { createSupplierRegistry, type SupplierRegistry, type Suppliers } from '@crew/suppliers';

/** The worker's registry: each airline's stored setting, opened with SUPPLIER_CREDENTIALS_KEY. */
export function supplierRegistry(db: Db, config: Config, sandbox: Suppliers): SupplierRegistry {
  const keyring = Keyring.parse(config.supplierCredentialsKey);
  return createSupplierRegistry({
    sandbox,
    open: (sealed, airlineId) => keyring.open(sealed, airlineId),
    readSetting: (airlineId) => supplierSettingsRepo.findSupplierSettings(db, airlineId),
  });
}
