import { ConfigError, configFieldOf, ENV_VARIABLES, EnvSchema, loadConfig, REQUIRED_IN_PRODUCTION } from '../src';

const mint = () => 'minted-operator-token';

describe('EnvSchema', () => {
  it('names every variable, each with a description and the Config field it fills', () => {
    expect(ENV_VARIABLES).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'QUEUE_PREFIX',
        'AUTH_URL',
        'SUPPLIER_URL',
        'OPS_TOKEN',
        'LOG_LEVEL',
        'AUTO_RETRY_DELAYS',
      ]),
    );
    expect(ENV_VARIABLES).toHaveLength(51);
    const config = loadConfig({}, mint);
    for (const name of ENV_VARIABLES) {
      expect([name, typeof (EnvSchema.properties[name] as { description?: unknown }).description]).toEqual([
        name,
        'string',
      ]);
      expect([name, configFieldOf(name) in config]).toEqual([name, true]);
    }
    expect(configFieldOf('JOB_STALLED_INTERVAL_MS')).toBe('stalledIntervalMs');
    expect(REQUIRED_IN_PRODUCTION).toEqual(['OPS_TOKEN']);
  });
});

describe('loadConfig', () => {
  it('applies DESIGN section 1 defaults to an empty environment', () => {
    const c = loadConfig({}, mint);
    expect(c).toMatchObject({
      nodeEnv: 'development',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/crew_travel',
      redisUrl: 'redis://127.0.0.1:6379',
      queuePrefix: 'crew',
      authUrl: 'http://127.0.0.1:4000',
      supplierUrl: 'http://127.0.0.1:4100',
      opsToken: 'minted-operator-token',
      opsTokenGenerated: true,
      logLevel: 'info',
      autoRetryDelays: [60, 300, 900],
      apiPort: 3000,
      workerPort: 9100,
      shutdownDeadlineMs: 25000,
      bookingConcurrency: 16,
      webhookSecretKeyGenerated: true,
      webhookAllowPrivateTargets: false,
      webhookBackoffMaxMs: 6 * 3600_000,
      webhookDisableAfterDays: 5,
      webhookTimeoutMs: 10_000,
      webhookLeaseMarginMs: 5000,
      smtpUrl: 'smtp://127.0.0.1:25',
      smtpSecure: false,
      publicApiUrl: 'http://127.0.0.1:3000',
      roomingPollMs: 15000,
      consoleFlightOptionsTimeoutMs: 4000,
    });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.autoRetryDelays)).toBe(true);
  });

  it('reads and coerces set variables; an empty one is unset', () => {
    const c = loadConfig(
      {
        API_PORT: '8080',
        AUTO_RETRY_DELAYS: ' 1, 2.5 ,3',
        REDIS_URL: 'rediss://cache:6380/',
        OPS_TOKEN: 'x'.repeat(16),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'TRUE',
        SMTP_USER: 'a b',
        SMTP_PASSWORD: 'p@ss',
        SMTP_SECURE: '1',
        WEBHOOK_DISABLE_AFTER_DAYS: '0.5',
        QUEUE_PREFIX: '',
      },
      mint,
    );
    expect(c).toMatchObject({
      apiPort: 8080,
      publicApiUrl: 'http://127.0.0.1:8080',
      autoRetryDelays: [1, 2.5, 3],
      redisUrl: 'rediss://cache:6380',
      opsTokenGenerated: false,
      queuePrefix: 'crew',
    });
    expect(c).toMatchObject({
      webhookAllowPrivateTargets: true,
      smtpSecure: true,
      smtpUrl: 'smtps://a%20b:p%40ss@127.0.0.1:25',
      webhookDisableAfterDays: 0.5,
    });
  });

  it('refuses bad values, naming each variable', () => {
    const bad = (env: Record<string, string>) => () => loadConfig(env, mint);
    expect(bad({ API_PORT: '70000' })).toThrow(new ConfigError('API_PORT must be a TCP port (0-65535), got "70000"'));
    expect(bad({ BOOKING_CONCURRENCY: '0', JOB_LOCK_MS: '-1' })).toThrow(
      /JOB_LOCK_MS must be a non-negative integer, got "-1"; BOOKING_CONCURRENCY must be an integer of at least 1, got "0"/,
    );
    expect(bad({ DATABASE_URL: 'mysql://x' })).toThrow(
      'DATABASE_URL must use postgres: or postgresql:, got "mysql://x"',
    );
    expect(bad({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    expect(bad({ QUEUE_PREFIX: 'a b' })).toThrow('QUEUE_PREFIX may hold letters, digits, _ . - only');
    expect(bad({ AUTO_RETRY_DELAYS: '60,,900' })).toThrow('AUTO_RETRY_DELAYS must be comma-separated seconds');
    expect(bad({ OPS_TOKEN: 'short' })).toThrow(new ConfigError('OPS_TOKEN must be at least 16 characters'));
    expect(bad({ NODE_ENV: 'production' })).toThrow('OPS_TOKEN is required when NODE_ENV=production');
    expect(bad({ WEBHOOK_SECRET_KEY: 'c2hvcnQ=' })).toThrow('WEBHOOK_SECRET_KEY must be 32 bytes');
    expect(bad({ SMTP_SECURE: 'yes' })).toThrow('SMTP_SECURE must be true or false');
    expect(bad({ SMTP_FROM: 'nobody' })).toThrow('SMTP_FROM must be an e-mail address');
    expect(bad({ WEBHOOK_LEASE_MARGIN_MS: '1000' })).toThrow(
      'WEBHOOK_LEASE_MARGIN_MS must be an integer of at least 2000, got "1000"',
    );
    expect(bad({ WEBHOOK_DISABLE_AFTER_DAYS: '0' })).toThrow(
      'WEBHOOK_DISABLE_AFTER_DAYS must be a positive number of days',
    );
  });
});
