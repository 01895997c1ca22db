/** Process configuration: parsed once from the environment into a frozen object, with clear errors. */
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
  /** Outbound webhooks (issue 13, README "Webhooks"). AES-256-GCM key of the signing secrets at rest (base64 or hex of 32 bytes). */
  readonly webhookSecretKey: string;
  /** True when WEBHOOK_SECRET_KEY was unset and a random key was minted; api and worker refuse to start so in production. */
  readonly webhookSecretKeyGenerated: boolean;
  readonly webhookAllowPrivateTargets: boolean;
  /** An attempt succeeds on a 2xx answered within this. */
  readonly webhookTimeoutMs: number;
  /** Backoff before attempt n+1: base * 2^(n-1), capped, for at most WEBHOOK_MAX_ATTEMPTS attempts. */
  readonly webhookBackoffBaseMs: number;
  readonly webhookBackoffMaxMs: number;
  readonly webhookMaxAttempts: number;
  /** An endpoint failing without a success for this many days is disabled. */
  readonly webhookDisableAfterDays: number;
  /** How long the previous secret signs too after a rotation (default of the rotate call). */
  readonly webhookRotationGraceSeconds: number;
  /** Endpoints each worker process drains at once. */
  readonly webhookConcurrency: number;
  /** How often the worker looks for due deliveries (besides being kicked after its own commits). */
  readonly webhookPollMs: number;
  /** DIRECT hotels' rooming lists (issue 15): the SMTP server as one URL (SMTP_URL, or built from SMTP_HOST/PORT/USER/PASSWORD/SECURE). */
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
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a TCP port (0-65535), got "${raw}"`);
  return n;
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const n = nonNegativeInt(env, name, fallback);
  if (n < 1) throw new ConfigError(`${name} must be at least 1, got "${env[name]}"`);
  return n;
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function delays(env: Env): number[] {
  const raw = env.AUTO_RETRY_DELAYS || '60,300,900';
  const parts = raw.split(',').map((p) => p.trim());
  const values = parts.map(Number);
  if (values.some((v) => !Number.isFinite(v) || v < 0) || parts.some((p) => p === '')) {
    throw new ConfigError(`AUTO_RETRY_DELAYS must be comma-separated seconds, got "${raw}"`);
  }
  return values;
}

/** Reads the fixed environment variables of DESIGN section 1. `mintToken` makes the development operator token. */
export function loadConfig(env: Env = process.env, mintToken: () => string = defaultMint): Config {
  const nodeEnv = env.NODE_ENV || 'development';
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}, got "${logLevel}"`);
  let opsToken = env.OPS_TOKEN || '';
  let opsTokenGenerated = false;
  if (!opsToken) {
    if (nodeEnv === 'production') throw new ConfigError('OPS_TOKEN is required when NODE_ENV=production');
    opsToken = mintToken();
    opsTokenGenerated = true;
  } else if (opsToken.length < 16) {
    throw new ConfigError('OPS_TOKEN must be at least 16 characters');
  }
  const queuePrefix = env.QUEUE_PREFIX || 'crew';
  if (!/^[A-Za-z0-9_.-]+$/.test(queuePrefix)) throw new ConfigError(`QUEUE_PREFIX may hold letters, digits, _ . - only, got "${queuePrefix}"`);
  return Object.freeze({
    nodeEnv,
    databaseUrl: url(env, 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/crew_travel', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    queuePrefix,
    authUrl: url(env, 'AUTH_URL', 'http://127.0.0.1:4000', ['http:', 'https:']),
    supplierUrl: url(env, 'SUPPLIER_URL', 'http://127.0.0.1:4100', ['http:', 'https:']),
    opsToken,
    opsTokenGenerated,
    logLevel,
    autoRetryDelays: Object.freeze(delays(env)),
    apiPort: port(env, 'API_PORT', 3000),
    workerPort: port(env, 'WORKER_PORT', 9100),
    authPort: port(env, 'AUTH_PORT', 4000),
    sandboxPort: port(env, 'SANDBOX_PORT', 4100),
    sandboxLatencyMs: nonNegativeInt(env, 'SANDBOX_LATENCY_MS', 0),
    sandboxLatencyJitterMs: nonNegativeInt(env, 'SANDBOX_LATENCY_JITTER_MS', 0),
    shutdownDeadlineMs: nonNegativeInt(env, 'SHUTDOWN_DEADLINE_MS', 25000),
    jobLockMs: nonNegativeInt(env, 'JOB_LOCK_MS', 60000),
    stalledIntervalMs: nonNegativeInt(env, 'JOB_STALLED_INTERVAL_MS', 30000),
    rateLimitPerMinute: nonNegativeInt(env, 'RATE_LIMIT_PER_MINUTE', 1200),
    bookingConcurrency: positiveInt(env, 'BOOKING_CONCURRENCY', 16),
    supplierRateLimitPerSecond: nonNegativeInt(env, 'SUPPLIER_RATE_LIMIT_PER_SECOND', 0),
    ...roomingConfig(env),
    ...webhookConfig(env),
  });
}

function webhookConfig(env: Env) {
  let webhookSecretKey = env.WEBHOOK_SECRET_KEY || '';
  const webhookSecretKeyGenerated = !webhookSecretKey;
  // Minted when unset; the api and worker refuse to start with a minted key in production (they share it).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!webhookSecretKey) webhookSecretKey = (require('node:crypto') as typeof import('node:crypto')).randomBytes(32).toString('base64');
  const key = /^[0-9a-fA-F]{64}$/.test(webhookSecretKey) ? Buffer.from(webhookSecretKey, 'hex') : Buffer.from(webhookSecretKey, 'base64');
  if (key.length !== 32) throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  const allow = (env.WEBHOOK_ALLOW_PRIVATE_TARGETS || 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(allow)) throw new ConfigError(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${allow}"`);
  const daysRaw = env.WEBHOOK_DISABLE_AFTER_DAYS || '5';
  const webhookDisableAfterDays = Number(daysRaw);
  if (!Number.isFinite(webhookDisableAfterDays) || webhookDisableAfterDays <= 0) throw new ConfigError(`WEBHOOK_DISABLE_AFTER_DAYS must be a positive number of days, got "${daysRaw}"`);
  return {
    webhookSecretKey,
    webhookSecretKeyGenerated,
    webhookAllowPrivateTargets: allow === 'true' || allow === '1',
    webhookTimeoutMs: positiveInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    webhookBackoffBaseMs: positiveInt(env, 'WEBHOOK_BACKOFF_BASE_MS', 30_000),
    webhookBackoffMaxMs: positiveInt(env, 'WEBHOOK_BACKOFF_MAX_MS', 6 * 3600_000),
    webhookMaxAttempts: positiveInt(env, 'WEBHOOK_MAX_ATTEMPTS', 16),
    webhookDisableAfterDays,
    webhookRotationGraceSeconds: nonNegativeInt(env, 'WEBHOOK_ROTATION_GRACE_SECONDS', 86_400),
    webhookConcurrency: positiveInt(env, 'WEBHOOK_CONCURRENCY', 8),
    webhookPollMs: positiveInt(env, 'WEBHOOK_POLL_MS', 500),
  };
}

function roomingConfig(env: Env) {
  const smtpHost = env.SMTP_HOST || '127.0.0.1';
  const smtpPort = port(env, 'SMTP_PORT', 25);
  const smtpUser = env.SMTP_USER || '';
  const smtpPassword = env.SMTP_PASSWORD || '';
  const secure = (env.SMTP_SECURE || 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(secure)) throw new ConfigError(`SMTP_SECURE must be true or false, got "${secure}"`);
  const smtpSecure = secure === 'true' || secure === '1';
  const auth = smtpUser ? `${encodeURIComponent(smtpUser)}:${encodeURIComponent(smtpPassword)}@` : '';
  const built = `${smtpSecure ? 'smtps' : 'smtp'}://${auth}${smtpHost.includes(':') ? `[${smtpHost}]` : smtpHost}:${smtpPort}`;
  const smtpUrl = env.SMTP_URL ? url(env, 'SMTP_URL', '', ['smtp:', 'smtps:']) : built;
  const smtpFrom = env.SMTP_FROM || 'crew-travel@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(smtpFrom)) throw new ConfigError(`SMTP_FROM must be an e-mail address, got "${smtpFrom}"`);
  return {
    smtpUrl,
    smtpHost,
    smtpPort,
    smtpUser,
    smtpPassword,
    smtpSecure,
    smtpFrom,
    publicApiUrl: url(env, 'PUBLIC_API_URL', `http://127.0.0.1:${port(env, 'API_PORT', 3000)}`, ['http:', 'https:']),
    roomingLeadHours: nonNegativeInt(env, 'ROOMING_LEAD_HOURS', 72),
    roomingAnswerHours: positiveInt(env, 'ROOMING_ANSWER_HOURS', 24),
    roomingPollMs: positiveInt(env, 'ROOMING_POLL_MS', 15000),
  };
}

function defaultMint(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:crypto') as typeof import('node:crypto')).randomBytes(24).toString('base64url');
}
