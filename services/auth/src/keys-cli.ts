/**
 * Signing-key maintenance: `npm run keys -- list | rotate | retire <kid>`.
 * Rotate makes a new active key; the previous one keeps verifying until it is retired, which should
 * wait at least one access-token lifetime (15 minutes) after the rotation.
 */
import { createDb } from '@crew/db';
import { authRepo } from '@crew/db';
import { Keyring, loadConfig } from '@crew/platform';
import { KeyStore } from './key-store';

async function run(): Promise<number> {
  const [command, arg] = process.argv.slice(2);
  const config = loadConfig({ ...process.env, OPS_TOKEN: process.env.OPS_TOKEN || 'unused-by-the-keys-cli' });
  // A key sealed with a minted credentials key would open nowhere else.
  if (command === 'rotate' && config.supplierCredentialsKeyGenerated) {
    console.error(
      'SUPPLIER_CREDENTIALS_KEY is unset: the new key is sealed with it and must open in the auth service ' +
        '(under npm start: SUPPLIER_CREDENTIALS_KEY=$(cat .supplier-credentials-key) npm run keys -- rotate)',
    );
    return 2;
  }
  const db = createDb(config.databaseUrl, { max: 1 });
  const keys = new KeyStore(db, Keyring.parse(config.supplierCredentialsKey));
  try {
    switch (command) {
      case 'list':
        for (const k of await authRepo.listSigningKeys(db))
          console.log(`${k.kid}\t${k.status}\t${k.created_at.toISOString()}`);
        return 0;
      case 'rotate':
        console.log(`new active key: ${await keys.rotate()}`);
        return 0;
      case 'retire':
        if (!arg) break;
        if (await keys.retire(arg)) {
          console.log(`retired ${arg}`);
          return 0;
        }
        console.error(`${arg} is not a previous (rotated-out) key`);
        return 1;
    }
    console.error('usage: npm run keys -- list | rotate | retire <kid>');
    return 2;
  } finally {
    await db.destroy();
  }
}

run().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
