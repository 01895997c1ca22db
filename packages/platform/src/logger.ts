import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that may carry credentials; they are never written to the logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-ops-token"]',
  'res.headers["set-cookie"]',
  'req.query.refresh_token',
  'req.query.client_secret',
  'authorization',
  'password',
  'client_secret',
  'refresh_token',
  'access_token',
  'user_token',
  'token',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.user_token',
  '*.password',
  // ioredis attaches the command to each error reply (err.command = { name, args }): AUTH's password on a
  // reconnect, the rate limiters' keys (e-mails) on a refused write. The name stays. (pino's err serializer
  // writes an error's cause only into the stack text, never its properties.)
  '*.command.args',
];

/** A JSON (pino) logger bound to the service name. `destination` lets tests capture lines. */
export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
