/**
 * Process configuration: one TypeBox schema of the environment variables (name, type, default, description),
 * checked by the shared ajv once at boot and turned into a frozen, typed `Config`. Tests and the deployment
 * manifests take the variable list from `EnvSchema`, never from this file's text.
 */
import { randomBytes } from 'node:crypto';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { checkQuery } from '@crew/contracts';
import { Keyring } from './keyring';

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
  /** Supplier credentials at rest (an airline's Duffel token): the key list of `Keyring`, newest first. */
  readonly supplierCredentialsKey: string;
  /** True when SUPPLIER_CREDENTIALS_KEY was unset and a key was minted; api and worker refuse that in production. */
  readonly supplierCredentialsKeyGenerated: boolean;
  /** Production refuses SANDBOX in an airline's supplier order unless this is set (a staging deployment). */
  readonly supplierSandboxAllowed: boolean;
  /** Duffel's API as the client's `basePath` (a path prefix needs its trailing slash). */
  readonly duffelApiUrl: string;
  /** The travel desk's console: a session ends after this many minutes without a request, and after these hours whatever. */
  readonly consoleSessionIdleMinutes: number;
  readonly consoleSessionMaxHours: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/*
 * Annotations on each variable's schema (ajv ignores them): `field`, the Config field it fills (which tells the
 * manifest test which processes read it); `must`, the wording of its error; `protocols`, a URL's allowed schemes;
 * `requiredInProduction`, a variable with no default that NODE_ENV=production insists on; `secret`, a value
 * errors never echo.
 */
interface Annotations {
  field: keyof Config;
  description: string;
  must?: string;
}

const port = (field: keyof Config, fallback: number, description: string) =>
  Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: fallback,
    field,
    description,
    must: 'must be a TCP port (0-65535)',
  });
const nonNegativeInt = (field: keyof Config, fallback: number, description: string) =>
  Type.Integer({ minimum: 0, default: fallback, field, description, must: 'must be a non-negative integer' });
const positiveInt = (field: keyof Config, fallback: number, description: string) =>
  Type.Integer({ minimum: 1, default: fallback, field, description, must: 'must be an integer of at least 1' });
const url = (field: keyof Config, protocols: readonly string[], fallback: string | undefined, description: string) =>
  Type.String({
    ...(fallback === undefined ? {} : { default: fallback }),
    field,
    description,
    protocols,
    must: `must be a ${protocols.map((p) => p.slice(0, -1)).join(' or ')} URL`,
  });
const text = (
  field: keyof Config,
  fallback: string,
  description: string,
  more: { pattern?: string; must?: string } = {},
) => Type.String({ default: fallback, field, description, ...more });
/** true/false/1/0 in any letter case. */
const flag = (field: keyof Config, description: string) =>
  Type.String({
    default: 'false',
    pattern: '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])$',
    field,
    description,
    must: 'must be true or false',
  });
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every environment variable a process reads (DESIGN section 1 fixes the first eight names and defaults). Unset or empty: the default. */
export const EnvSchema = Type.Object({
  DATABASE_URL: url(
    'databaseUrl',
    ['postgres:', 'postgresql:'],
    'postgres://postgres@127.0.0.1:5432/crew_travel',
    'Postgres; the database is created if missing',
  ),
  REDIS_URL: url(
    'redisUrl',
    ['redis:', 'rediss:'],
    'redis://127.0.0.1:6379',
    'Redis of the BullMQ queues, rate limits and health',
  ),
  QUEUE_PREFIX: text('queuePrefix', 'crew', 'BullMQ key prefix: lets two stacks share one Redis', {
    pattern: '^[A-Za-z0-9_.-]+$',
    must: 'may hold letters, digits, _ . - only',
  }),
  AUTH_URL: url('authUrl', ['http:', 'https:'], 'http://127.0.0.1:4000', 'The auth service (token issuer and JWKS)'),
  SUPPLIER_URL: url(
    'supplierUrl',
    ['http:', 'https:'],
    'http://127.0.0.1:4100',
    'The hotel and flight supplier (the sandbox by default)',
  ),
  OPS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      field: 'opsToken',
      requiredInProduction: true,
      secret: true,
      description: 'Operator bearer; minted (and printed) when unset outside production',
      must: 'must be at least 16 characters',
    }),
  ),
  LOG_LEVEL: Type.Unsafe<(typeof LOG_LEVELS)[number]>({
    type: 'string',
    enum: [...LOG_LEVELS],
    default: 'info',
    field: 'logLevel',
    description: 'pino log level',
    must: `must be one of ${LOG_LEVELS.join(', ')}`,
  }),
  AUTO_RETRY_DELAYS: text(
    'autoRetryDelays',
    '60,300,900',
    'Seconds between automatic retries of a FAILED booking, comma-separated',
    {
      pattern: '^\\s*\\d+(?:\\.\\d+)?\\s*(?:,\\s*\\d+(?:\\.\\d+)?\\s*)*$',
      must: 'must be comma-separated seconds',
    },
  ),
  NODE_ENV: text(
    'nodeEnv',
    'development',
    '`production` requires OPS_TOKEN (and WEBHOOK_SECRET_KEY in the api and worker) and hides the sandbox’s control API',
  ),
  API_PORT: port('apiPort', 3000, 'Port of the api'),
  WORKER_PORT: port('workerPort', 9100, 'Port of the worker’s health and metrics'),
  AUTH_PORT: port('authPort', 4000, 'Port of the auth service'),
  SANDBOX_PORT: port('sandboxPort', 4100, 'Port of the supplier sandbox'),
  SANDBOX_LATENCY_MS: nonNegativeInt('sandboxLatencyMs', 0, 'Supplier sandbox response latency (ms)'),
  SANDBOX_LATENCY_JITTER_MS: nonNegativeInt('sandboxLatencyJitterMs', 0, 'Jitter added to that latency (ms)'),
  SHUTDOWN_DEADLINE_MS: nonNegativeInt(
    'shutdownDeadlineMs',
    25000,
    'Time a process may spend finishing in-flight work after SIGTERM (ms)',
  ),
  JOB_LOCK_MS: nonNegativeInt(
    'jobLockMs',
    60000,
    'BullMQ job lock: how long a dead worker’s job stays locked before another takes it (ms)',
  ),
  JOB_STALLED_INTERVAL_MS: nonNegativeInt(
    'stalledIntervalMs',
    30000,
    'How often workers look for such stalled jobs (ms)',
  ),
  RATE_LIMIT_PER_MINUTE: nonNegativeInt(
    'rateLimitPerMinute',
    1200,
    'Requests a minute each airline may make to the airline API, across every api replica; 0 = no limit',
  ),
  BOOKING_CONCURRENCY: positiveInt(
    'bookingConcurrency',
    16,
    'Booking tasks each worker process runs at once, per supplier queue',
  ),
  SUPPLIER_RATE_LIMIT_PER_SECOND: nonNegativeInt(
    'supplierRateLimitPerSecond',
    0,
    'Booking tasks a second each supplier is sent, across every worker; 0 = no limit',
  ),
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({
      field: 'webhookSecretKey',
      secret: true,
      description:
        'AES-256-GCM key of the webhook signing secrets at rest: 32 bytes as 64 hex digits or base64; minted when unset (the api and worker refuse that in production)',
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag('webhookAllowPrivateTargets', 'Allow webhook URLs on private/loopback addresses'),
  WEBHOOK_TIMEOUT_MS: positiveInt(
    'webhookTimeoutMs',
    10_000,
    'A delivery attempt succeeds on a 2xx answered within this (ms)',
  ),
  WEBHOOK_BACKOFF_BASE_MS: positiveInt(
    'webhookBackoffBaseMs',
    30_000,
    'Backoff before attempt n+1: base * 2^(n-1), capped (ms)',
  ),
  WEBHOOK_BACKOFF_MAX_MS: positiveInt('webhookBackoffMaxMs', 6 * 3600_000, 'The cap of that backoff (ms)'),
  WEBHOOK_MAX_ATTEMPTS: positiveInt('webhookMaxAttempts', 16, 'Attempts of one delivery'),
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Number({
    exclusiveMinimum: 0,
    default: 5,
    field: 'webhookDisableAfterDays',
    description: 'An endpoint failing without a success for this many days is disabled',
    must: 'must be a positive number of days',
  }),
  WEBHOOK_ROTATION_GRACE_SECONDS: nonNegativeInt(
    'webhookRotationGraceSeconds',
    86_400,
    'How long the previous secret signs too after a rotation (default of the rotate call)',
  ),
  WEBHOOK_CONCURRENCY: positiveInt('webhookConcurrency', 8, 'Endpoints each worker process drains at once'),
  WEBHOOK_POLL_MS: positiveInt('webhookPollMs', 500, 'How often the worker looks for due deliveries (ms)'),
  SMTP_URL: Type.Optional(
    url(
      'smtpUrl',
      ['smtp:', 'smtps:'],
      undefined,
      'The SMTP server of rooming-list e-mails as one URL; built from SMTP_HOST/PORT/USER/PASSWORD/SECURE when unset',
    ),
  ),
  SMTP_HOST: text('smtpHost', '127.0.0.1', 'SMTP host (when SMTP_URL is unset)'),
  SMTP_PORT: port('smtpPort', 25, 'SMTP port (when SMTP_URL is unset)'),
  SMTP_USER: text('smtpUser', '', 'SMTP user, none when empty (when SMTP_URL is unset)'),
  SMTP_PASSWORD: Type.String({
    default: '',
    field: 'smtpPassword',
    secret: true,
    description: 'SMTP password (when SMTP_URL is unset)',
  }),
  SMTP_SECURE: flag('smtpSecure', 'SMTP over TLS (smtps) (when SMTP_URL is unset)'),
  SMTP_FROM: text('smtpFrom', 'crew-travel@localhost', 'The From address of rooming-list e-mails', {
    pattern: '^[^\\s@<>]+@[^\\s@<>]+$',
    must: 'must be an e-mail address',
  }),
  PUBLIC_API_URL: Type.Optional(
    url(
      'publicApiUrl',
      ['http:', 'https:'],
      undefined,
      'The api’s address as hotels reach it (confirmation links); default http://127.0.0.1:{API_PORT}',
    ),
  ),
  ROOMING_LEAD_HOURS: nonNegativeInt(
    'roomingLeadHours',
    72,
    'P3/P4 rows wait for the night’s list sent this many hours before check-in; 0 sends every change at once',
  ),
  ROOMING_ANSWER_HOURS: positiveInt(
    'roomingAnswerHours',
    24,
    'Hours the hotel has to answer a list (never past check-in)',
  ),
  ROOMING_POLL_MS: positiveInt(
    'roomingPollMs',
    15000,
    'How often the worker sends due lists, retries the mail server and expires unanswered lists (ms)',
  ),
  SUPPLIER_CREDENTIALS_KEY: Type.Optional(
    Type.String({
      field: 'supplierCredentialsKey',
      secret: true,
      description:
        'AES-256-GCM keys of supplier credentials at rest, `kid:key[,kid:key…]` newest first (32 bytes each, hex or base64); minted when unset (the api and worker refuse that in production)',
    }),
  ),
  SUPPLIER_SANDBOX_ALLOWED: flag(
    'supplierSandboxAllowed',
    'Let an airline name SANDBOX among its suppliers when NODE_ENV=production (a staging deployment)',
  ),
  DUFFEL_API_URL: url(
    'duffelApiUrl',
    ['http:', 'https:'],
    'https://api.duffel.com',
    'Duffel’s API, the client’s basePath (a path prefix needs its trailing slash)',
  ),
  CONSOLE_SESSION_IDLE_MINUTES: positiveInt(
    'consoleSessionIdleMinutes',
    30,
    'A console session ends after this many minutes without a request',
  ),
  CONSOLE_SESSION_MAX_HOURS: positiveInt(
    'consoleSessionMaxHours',
    12,
    'A console session ends this many hours after sign-in, however busy',
  ),
});
/** The environment once checked, defaults applied. */
export type ConfigEnv = Static<typeof EnvSchema>;
export type EnvVariable = keyof ConfigEnv;

/** The names of every environment variable of the processes, in schema order. */
export const ENV_VARIABLES = Object.keys(EnvSchema.properties) as EnvVariable[];

function annotations(
  name: EnvVariable,
): Annotations & { protocols?: string[]; requiredInProduction?: boolean; secret?: boolean; default?: unknown } {
  return EnvSchema.properties[name] as TSchema & Annotations;
}

/** The Config field each variable fills. */
export function configFieldOf(name: EnvVariable): keyof Config {
  return annotations(name).field;
}

/** The variables NODE_ENV=production requires (they have no default and are minted in development). */
export const REQUIRED_IN_PRODUCTION = ENV_VARIABLES.filter((name) => annotations(name).requiredInProduction === true);

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
    webhookBackoffBaseMs: env.WEBHOOK_BACKOFF_BASE_MS,
    webhookBackoffMaxMs: env.WEBHOOK_BACKOFF_MAX_MS,
    webhookMaxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    webhookDisableAfterDays: env.WEBHOOK_DISABLE_AFTER_DAYS,
    webhookRotationGraceSeconds: env.WEBHOOK_ROTATION_GRACE_SECONDS,
    webhookConcurrency: env.WEBHOOK_CONCURRENCY,
    webhookPollMs: env.WEBHOOK_POLL_MS,
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

/**
 * The api seals secrets (webhook signing secrets, supplier credentials) and the worker opens them: both need
 * the same keys. Production refuses a minted key; development warns that what it seals now will not open
 * in another process or after a restart.
 */
export function checkSharedKeys(config: Config, logger: { warn(msg: string): void }): void {
  const minted = [
    ...(config.webhookSecretKeyGenerated ? ['WEBHOOK_SECRET_KEY'] : []),
    ...(config.supplierCredentialsKeyGenerated ? ['SUPPLIER_CREDENTIALS_KEY'] : []),
  ];
  for (const name of minted) {
    if (config.nodeEnv === 'production')
      throw new ConfigError(`${name} is required in production (32 bytes, base64 or hex)`);
    logger.warn(
      `${name} is unset: a random key was minted for this process; secrets sealed now cannot be read by other processes or after a restart`,
    );
  }
}
