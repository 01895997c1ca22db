/** What a process is configured with: the frozen, typed `Config` loadConfig makes of the environment (EnvSchema). */

export interface Config {
  readonly nodeEnv: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly queuePrefix: string;
  readonly authUrl: string;
  readonly supplierUrl: string;
  /** Operator bearer; `generated` when it was minted because OPS_TOKEN was unset outside production. */
  readonly opsToken: string;
  readonly opsTokenGenerated: boolean;
  readonly logLevel: string;
  /** Seconds between automatic retries of a FAILED booking. */
  readonly autoRetryDelays: readonly number[];
  readonly apiPort: number;
  readonly workerPort: number;
  readonly authPort: number;
  readonly sandboxPort: number;
  /** Supplier sandbox response latency in ms, and its jitter. */
  readonly sandboxLatencyMs: number;
  readonly sandboxLatencyJitterMs: number;
  /** Milliseconds a process may spend finishing in-flight work after SIGTERM. */
  readonly shutdownDeadlineMs: number;
  /** BullMQ job lock: how long a job of a dead worker stays locked before it is handed to another. */
  readonly jobLockMs: number;
  /** How often workers look for such stalled jobs. */
  readonly stalledIntervalMs: number;
  /** Requests a minute each airline may make to the airline API, across every api replica; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Booking tasks each worker process runs at once, per supplier queue (hotel, flight). */
  readonly bookingConcurrency: number;
  /** Booking tasks a second each supplier (hotel, flight) is sent, across every worker; 0 = no limit. */
  readonly supplierRateLimitPerSecond: number;
  /** Outbound webhooks (README "Webhooks"). AES-256-GCM key of the signing secrets at rest (base64 or hex of 32 bytes). */
  readonly webhookSecretKey: string;
  /** True when WEBHOOK_SECRET_KEY was unset and a random key was minted; api and worker refuse to start so in production. */
  readonly webhookSecretKeyGenerated: boolean;
  readonly webhookAllowPrivateTargets: boolean;
  /** An attempt succeeds on a 2xx answered within this. */
  readonly webhookTimeoutMs: number;
  /**
   * A drain's lease on an endpoint lasts webhookTimeoutMs plus this; it is renewed about every second while the
   * drain sends, so this covers that second and the queries around an attempt. A dead worker's lease runs out.
   */
  readonly webhookLeaseMarginMs: number;
  /** Backoff before attempt n+1: base * 2^(n-1), capped, for at most WEBHOOK_MAX_ATTEMPTS attempts. */
  readonly webhookBackoffBaseMs: number;
  readonly webhookBackoffMaxMs: number;
  readonly webhookMaxAttempts: number;
  /**
   * An endpoint failing without a success for this many days is disabled. The failing run ends at a success, or
   * when a delivery is given up with none left waiting (the next failure starts a new run).
   */
  readonly webhookDisableAfterDays: number;
  /** How long the previous secret signs too after a rotation (default of the rotate call). */
  readonly webhookRotationGraceSeconds: number;
  /** Endpoints each worker process drains at once. */
  readonly webhookConcurrency: number;
  /** How often the worker looks for due deliveries (besides being kicked after its own commits). */
  readonly webhookPollMs: number;
  /**
   * A drain's slice: it sends an endpoint's deliveries this long (or 500 attempts) at most, then the endpoint goes
   * back to the queue behind the drains waiting there (another airline's urgent one first).
   */
  readonly webhookDrainSliceMs: number;
  /** Days an event and its finished deliveries are kept (listed, redeliverable) before the worker deletes them. */
  readonly webhookRetentionDays: number;
  /** DIRECT hotels' rooming lists: the SMTP server as one URL (SMTP_URL, or built from SMTP_HOST/PORT/USER/PASSWORD/SECURE). */
  readonly smtpUrl: string;
  readonly smtpHost: string;
  readonly smtpPort: number;
  readonly smtpUser: string;
  readonly smtpPassword: string;
  readonly smtpSecure: boolean;
  /** The From address of rooming-list e-mails. */
  readonly smtpFrom: string;
  /** The api's address as hotels reach it: the confirmation links in rooming-list e-mails point there. */
  readonly publicApiUrl: string;
  /** P3/P4 rows wait for the night's list sent this many hours before check-in; 0 sends every change at once. */
  readonly roomingLeadHours: number;
  /** Hours the hotel has to answer a list (never past check-in). */
  readonly roomingAnswerHours: number;
  /** How often the worker sends due lists, retries the mail server and expires unanswered lists. */
  readonly roomingPollMs: number;
  /**
   * Supplier credentials, traveller fields and the auth service's private signing keys at rest: the key list of
   * `Keyring`, newest first.
   */
  readonly supplierCredentialsKey: string;
  /** True when SUPPLIER_CREDENTIALS_KEY was unset and a key was minted; api, worker and auth refuse that in production. */
  readonly supplierCredentialsKeyGenerated: boolean;
  /** Production refuses SANDBOX in an airline's supplier order unless this is set (a staging deployment). */
  readonly supplierSandboxAllowed: boolean;
  /** Duffel's API as the client's `basePath` (a path prefix needs its trailing slash). */
  readonly duffelApiUrl: string;
  /** The travel desk's console: a session ends after this many minutes without a request, and after these hours whatever. */
  readonly consoleSessionIdleMinutes: number;
  readonly consoleSessionMaxHours: number;
  /**
   * How long a console item page waits for a deadhead's live flight options: a person is waiting on the page, so
   * it does not wait out the supplier's own deadline and retries (GET /crew/flight-options does).
   */
  readonly consoleFlightOptionsTimeoutMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The api seals secrets (webhook signing secrets, supplier credentials) and the worker opens them: both need
 * the same keys; the auth service seals its signing keys with SUPPLIER_CREDENTIALS_KEY (`only` names the keys a
 * process uses). Production refuses a minted key; development warns that what it seals now will not open
 * in another process or after a restart.
 */
export function checkSharedKeys(
  config: Config,
  logger: { warn(msg: string): void },
  only?: ('WEBHOOK_SECRET_KEY' | 'SUPPLIER_CREDENTIALS_KEY')[],
): void {
  const minted = [
    ...(config.webhookSecretKeyGenerated ? (['WEBHOOK_SECRET_KEY'] as const) : []),
    ...(config.supplierCredentialsKeyGenerated ? (['SUPPLIER_CREDENTIALS_KEY'] as const) : []),
  ].filter((name) => !only || only.includes(name));
  for (const name of minted) {
    if (config.nodeEnv === 'production')
      throw new ConfigError(`${name} is required in production (32 bytes, base64 or hex)`);
    logger.warn(
      `${name} is unset: a random key was minted for this process; secrets sealed now cannot be read by other processes or after a restart`,
    );
  }
}
