import { createServer, type Server } from 'node:http';
import { openDatabase, SERVING_DB, type Db } from '@crew/db';
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
  /* eslint-disable prefer-const */
  let db: Db | undefined;
  let server: Server | undefined;
  /* eslint-enable prefer-const */
  // Installed first (node runs as PID 1, which ignores a signal it has no handler for): a SIGTERM during the
  // migrations or the signing-key load closes whatever exists by then.
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: async () => server && closeServer(server, config.shutdownDeadlineMs - 1000) },
    { name: 'postgres', run: async () => db?.destroy() },
  ]);
  db = await openDatabase(config.databaseUrl, { ...SERVING_DB, applicationName: 'crew-auth' });
  const keys = new KeyStore(db, Keyring.parse(config.supplierCredentialsKey));
  await keys.signingKey();
  server = createServer(createAuthApp({ db, keys, logger, issuer: () => config.authUrl }));
  const port = await listen(server, config.authPort);
  logger.info({ port, issuer: config.authUrl }, 'auth listening');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
