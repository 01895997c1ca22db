/**
 * Process configuration: one TypeBox schema of the environment variables (name, type, default, description),
 * checked by the shared ajv once at boot and turned into a frozen, typed `Config`. Tests and the deployment
 * manifests take the variable list from `EnvSchema`, never from this file's text.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Config } from './config';

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
  WEBHOOK_LEASE_MARGIN_MS: Type.Integer({
    minimum: 2000,
    default: 5000,
    field: 'webhookLeaseMarginMs',
    description:
      "How much longer than WEBHOOK_TIMEOUT_MS a drain's hold on an endpoint lasts (renewed about every second while it sends): a dead worker's endpoints are taken over once it runs out (ms)",
    must: 'must be an integer of at least 2000',
  }),
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
    description:
      'An endpoint failing without a success for this many days is disabled; the failing run ends at a success, or when a delivery is given up with none left waiting',
    must: 'must be a positive number of days',
  }),
  WEBHOOK_ROTATION_GRACE_SECONDS: nonNegativeInt(
    'webhookRotationGraceSeconds',
    86_400,
    'How long the previous secret signs too after a rotation (default of the rotate call)',
  ),
  WEBHOOK_CONCURRENCY: positiveInt('webhookConcurrency', 8, 'Endpoints each worker process drains at once'),
  WEBHOOK_POLL_MS: positiveInt('webhookPollMs', 500, 'How often the worker looks for due deliveries (ms)'),
  WEBHOOK_DRAIN_SLICE_MS: positiveInt(
    'webhookDrainSliceMs',
    5_000,
    'A drain sends an endpoint this long (or 500 attempts) before it goes back to the queue behind the others (ms)',
  ),
  WEBHOOK_RETENTION_DAYS: positiveInt(
    'webhookRetentionDays',
    30,
    'Days a webhook event and its SUCCEEDED or FAILED deliveries are kept (listed, redeliverable); the worker deletes them after',
  ),
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
        'AES-256-GCM keys of supplier credentials, traveller fields and the auth service’s private signing keys at rest, `kid:key[,kid:key…]` newest first (32 bytes each, hex or base64); minted when unset (the api, worker and auth refuse that in production)',
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
  CONSOLE_FLIGHT_OPTIONS_TIMEOUT_MS: positiveInt(
    'consoleFlightOptionsTimeoutMs',
    4000,
    'How long a console item page waits for a deadhead’s live flight options before it shows the item without them',
  ),
});
/** The environment once checked, defaults applied. */
export type ConfigEnv = Static<typeof EnvSchema>;
export type EnvVariable = keyof ConfigEnv;

/** The names of every environment variable of the processes, in schema order. */
export const ENV_VARIABLES = Object.keys(EnvSchema.properties) as EnvVariable[];

/** A variable's annotations (not part of the package's exports). */
export function annotations(
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
