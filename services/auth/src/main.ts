import { createServer } from 'node:http';
import { openDatabase } from '@crew/db';
import {
  checkSharedKeys,
  closeServer,
  createLogger,
  installShutdown,
  Keyring,
  listen,
  loadConfig,
} from '@crew/platform';
import { createAuthApp } from './app';
import { KeyStore } from './key-store';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('auth', config.logLevel);
  // The private signing keys are sealed with it: every auth replica, and the keys CLI, needs the same list.
  checkSharedKeys(config, logger, ['SUPPLIER_CREDENTIALS_KEY']);
  const db = await openDatabase(config.databaseUrl, { applicationName: 'crew-auth' });
  const keys = new KeyStore(db, Keyring.parse(config.supplierCredentialsKey));
  await keys.signingKey();
  const server = createServer(createAuthApp({ db, keys, logger, issuer: () => config.authUrl }));
  const port = await listen(server, config.authPort);
  logger.info({ port, issuer: config.authUrl }, 'auth listening');
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: () => closeServer(server, config.shutdownDeadlineMs - 1000) },
    { name: 'postgres', run: () => db.destroy() },
  ]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
