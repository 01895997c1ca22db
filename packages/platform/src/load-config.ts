import { randomBytes } from 'node:crypto';
import { checkQuery } from '@crew/contracts';
import { ConfigError, type Config } from './config';
import { annotations, ENV_VARIABLES, EnvSchema, type ConfigEnv, type EnvVariable } from './env-schema';
import { Keyring } from './keyring';

type RawEnv = Record<string, string | undefined>;

/** Unset and empty variables take their default; the rest is checked against EnvSchema (numbers coerced from text). */
function parseEnv(env: RawEnv): ConfigEnv {
  const raw: Record<string, unknown> = {};
  for (const name of ENV_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
    else if (annotations(name).default !== undefined) raw[name] = annotations(name).default;
  }
  const checked = checkQuery(EnvSchema, raw);
  if (!checked.ok) {
    // One line per variable (ajv may report several rules of one), every bad variable at once.
    const problems = new Map(checked.issues.map(({ field, issue }) => [field.slice(1) as EnvVariable, issue]));
    throw new ConfigError(
      [...problems]
        .map(
          ([name, issue]) =>
            `${name} ${annotations(name).must ?? issue}${annotations(name).secret ? '' : `, got "${env[name]}"`}`,
        )
        .join('; '),
    );
  }
  for (const name of ENV_VARIABLES) {
    const protocols = annotations(name).protocols;
    const value = checked.value[name];
    if (protocols && typeof value === 'string') urlOf(name, value, protocols);
  }
  return checked.value;
}

/** The URL without trailing slashes, when it parses and uses one of the protocols. */
function urlOf(name: string, raw: string, protocols: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

const isTrue = (flagValue: string) => ['true', '1'].includes(flagValue.toLowerCase());

/** Reads the environment variables of EnvSchema (DESIGN section 1). `mintToken` makes the development operator token. */
export function loadConfig(rawEnv: RawEnv = process.env, mintToken: () => string = defaultMint): Config {
  const env = parseEnv(rawEnv);
  let opsToken = env.OPS_TOKEN ?? '';
  let opsTokenGenerated = false;
  if (!opsToken) {
    if (env.NODE_ENV === 'production') throw new ConfigError('OPS_TOKEN is required when NODE_ENV=production');
    opsToken = mintToken();
    opsTokenGenerated = true;
  }
  const url = (name: 'DATABASE_URL' | 'REDIS_URL' | 'AUTH_URL' | 'SUPPLIER_URL') =>
    urlOf(name, env[name], annotations(name).protocols!);
  return Object.freeze({
    nodeEnv: env.NODE_ENV,
    databaseUrl: url('DATABASE_URL'),
    redisUrl: url('REDIS_URL'),
    queuePrefix: env.QUEUE_PREFIX,
    authUrl: url('AUTH_URL'),
    supplierUrl: url('SUPPLIER_URL'),
    opsToken,
    opsTokenGenerated,
    logLevel: env.LOG_LEVEL,
    autoRetryDelays: Object.freeze(env.AUTO_RETRY_DELAYS.split(',').map((p) => Number(p.trim()))),
    apiPort: env.API_PORT,
    workerPort: env.WORKER_PORT,
    authPort: env.AUTH_PORT,
    sandboxPort: env.SANDBOX_PORT,
    sandboxLatencyMs: env.SANDBOX_LATENCY_MS,
    sandboxLatencyJitterMs: env.SANDBOX_LATENCY_JITTER_MS,
    shutdownDeadlineMs: env.SHUTDOWN_DEADLINE_MS,
    jobLockMs: env.JOB_LOCK_MS,
    stalledIntervalMs: env.JOB_STALLED_INTERVAL_MS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    bookingConcurrency: env.BOOKING_CONCURRENCY,
    supplierRateLimitPerSecond: env.SUPPLIER_RATE_LIMIT_PER_SECOND,
    consoleSessionIdleMinutes: env.CONSOLE_SESSION_IDLE_MINUTES,
    consoleSessionMaxHours: env.CONSOLE_SESSION_MAX_HOURS,
    consoleFlightOptionsTimeoutMs: env.CONSOLE_FLIGHT_OPTIONS_TIMEOUT_MS,
    ...roomingConfig(env),
    ...webhookConfig(env),
    ...supplierConfig(env),
  });
}

function webhookConfig(env: ConfigEnv) {
  // Minted when unset; the api and worker refuse to start with a minted key in production (they share it).
  const webhookSecretKey = env.WEBHOOK_SECRET_KEY || randomBytes(32).toString('base64');
  const key = /^[0-9a-fA-F]{64}$/.test(webhookSecretKey)
    ? Buffer.from(webhookSecretKey, 'hex')
    : Buffer.from(webhookSecretKey, 'base64');
  if (key.length !== 32) throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  return {
    webhookSecretKey,
    webhookSecretKeyGenerated: !env.WEBHOOK_SECRET_KEY,
    webhookAllowPrivateTargets: isTrue(env.WEBHOOK_ALLOW_PRIVATE_TARGETS),
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookLeaseMarginMs: env.WEBHOOK_LEASE_MARGIN_MS,
    webhookBackoffBaseMs: env.WEBHOOK_BACKOFF_BASE_MS,
    webhookBackoffMaxMs: env.WEBHOOK_BACKOFF_MAX_MS,
    webhookMaxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    webhookDisableAfterDays: env.WEBHOOK_DISABLE_AFTER_DAYS,
    webhookRotationGraceSeconds: env.WEBHOOK_ROTATION_GRACE_SECONDS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    webhookPollMs: env.WEBHOOK_POLL_MS,
    webhookDrainSliceMs: env.WEBHOOK_DRAIN_SLICE_MS,
    webhookRetentionDays: env.WEBHOOK_RETENTION_DAYS,
  };
}

function supplierConfig(env: ConfigEnv) {
  const supplierCredentialsKey = env.SUPPLIER_CREDENTIALS_KEY || Keyring.mint();
  try {
    Keyring.parse(supplierCredentialsKey);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  // basePath keeps its trailing slash: the client resolves paths against it.
  urlOf('DUFFEL_API_URL', env.DUFFEL_API_URL, annotations('DUFFEL_API_URL').protocols!);
  return {
    supplierCredentialsKey,
    supplierCredentialsKeyGenerated: !env.SUPPLIER_CREDENTIALS_KEY,
    supplierSandboxAllowed: isTrue(env.SUPPLIER_SANDBOX_ALLOWED),
    duffelApiUrl: env.DUFFEL_API_URL,
  };
}

function roomingConfig(env: ConfigEnv) {
  const smtpSecure = isTrue(env.SMTP_SECURE);
  const { SMTP_HOST: host, SMTP_USER: user, SMTP_PASSWORD: password } = env;
  const auth = user ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}@` : '';
  const built = `${smtpSecure ? 'smtps' : 'smtp'}://${auth}${host.includes(':') ? `[${host}]` : host}:${env.SMTP_PORT}`;
  return {
    smtpUrl: env.SMTP_URL ? urlOf('SMTP_URL', env.SMTP_URL, annotations('SMTP_URL').protocols!) : built,
    smtpHost: host,
    smtpPort: env.SMTP_PORT,
    smtpUser: user,
    smtpPassword: password,
    smtpSecure,
    smtpFrom: env.SMTP_FROM,
    publicApiUrl: urlOf(
      'PUBLIC_API_URL',
      env.PUBLIC_API_URL ?? `http://127.0.0.1:${env.API_PORT}`,
      annotations('PUBLIC_API_URL').protocols!,
    ),
    roomingLeadHours: env.ROOMING_LEAD_HOURS,
    roomingAnswerHours: env.ROOMING_ANSWER_HOURS,
    roomingPollMs: env.ROOMING_POLL_MS,
  };
}

function defaultMint(): string {
  return randomBytes(24).toString('base64url');
}
