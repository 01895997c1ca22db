/**
 * `npm start`: applies migrations, then runs api, worker, auth and the supplier sandbox in one foreground
 * supervisor with per-process log prefixes. A process that crashes is restarted with back-off, the others
 * keep running. Ctrl-C / SIGTERM stops all of them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createDb, ensureDatabase, migrateToLatest } from '@crew/db';
import { Keyring, loadConfig } from '@crew/platform';
import { Supervisor } from './supervisor';

// tsx as a loader in the service's own process (not the tsx CLI, which wraps it in a child): signals and
// exit codes are the service's own.
const tsx = (...args: string[]) => ({ command: process.execPath, args: ['--import', 'tsx', ...args] });

async function waitFor(url: string, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

async function main(): Promise<void> {
  const opsToken = process.env.OPS_TOKEN || randomBytes(24).toString('base64url');
  const config = loadConfig({ ...process.env, OPS_TOKEN: opsToken });
  await ensureDatabase(config.databaseUrl);
  const db = createDb(config.databaseUrl, { max: 1 });
  const migrated = await migrateToLatest(db);
  await db.destroy();
  console.log(`[start] migrations applied: ${migrated.results?.filter((r) => r.status === 'Success').length ?? 0} new`);

  // One webhook secret key for the api (encrypts) and the worker (decrypts), the same in every run unless set.
  const env = {
    ...process.env,
    OPS_TOKEN: opsToken,
    WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY || developmentWebhookKey(),
    SUPPLIER_CREDENTIALS_KEY: process.env.SUPPLIER_CREDENTIALS_KEY || developmentCredentialsKey(),
  };
  // The README walkthrough reads the token from here (owner-only file, git-ignored; never in production).
  if (process.env.NODE_ENV !== 'production') writeFileSync('.ops-token', `${opsToken}\n`, { mode: 0o600 });
  const supervisor = new Supervisor(
    [
      { name: 'auth', ...tsx('services/auth/src/main.ts'), color: 35 },
      { name: 'sandbox', ...tsx('services/supplier-sandbox/src/main.ts'), color: 33 },
      { name: 'api', ...tsx('services/api/src/main.ts'), color: 36 },
      // The worker's heap cap, as deployed (k8s/base/worker.yaml).
      {
        name: 'worker',
        ...tsx('--max-old-space-size=850', '--max-semi-space-size=32', 'services/worker/src/main.ts'),
        color: 32,
      },
    ],
    { env, cwd: process.cwd() },
  ).start();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void supervisor.stop(signal));
  // Children run in their own process groups; do not leave them behind if this process dies.
  process.on('exit', () => supervisor.killAll());
  void supervisor.done.then((code) => process.exit(code));

  const api = `http://127.0.0.1:${config.apiPort}`;
  const checks = [
    `${config.authUrl}/healthz`,
    `${config.supplierUrl}/healthz`,
    `http://127.0.0.1:${config.workerPort}/healthz`,
    `${api}/readyz`,
  ];
  const up = await Promise.all(checks.map((u) => waitFor(u, 60_000)));
  console.log(
    [
      '',
      up.every(Boolean)
        ? '[start] all four processes are up'
        : `[start] not every process answered: ${checks.filter((_, i) => !up[i]).join(', ')}`,
      `  api (airline API)   ${api}/api/v1`,
      `  operator API        ${api}/ops/v1`,
      `  auth                ${config.authUrl}`,
      `  supplier sandbox    ${config.supplierUrl}`,
      `  worker health       http://127.0.0.1:${config.workerPort}/healthz`,
      `  operator token      ${opsToken}${process.env.OPS_TOKEN ? ' (from OPS_TOKEN)' : ' (generated; set OPS_TOKEN to choose one)'}`,
      '',
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error('[start] failed:', err);
  process.exit(1);
});

/**
 * Supplier credentials are stored sealed in Postgres, so the development key must outlive one run: it is
 * minted once into `.supplier-credentials-key` (owner-only, git-ignored). Production sets the variable.
 */
function developmentCredentialsKey(): string {
  return developmentKey('.supplier-credentials-key', () => Keyring.mint());
}

/**
 * Webhook signing secrets are stored sealed in Postgres too: a key minted per run left every endpoint registered
 * in an earlier run unable to sign. Minted once into `.webhook-secret-key` (owner-only, git-ignored).
 */
function developmentWebhookKey(): string {
  return developmentKey('.webhook-secret-key', () => randomBytes(32).toString('base64'));
}

function developmentKey(file: string, mint: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = mint();
  if (process.env.NODE_ENV !== 'production') writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
