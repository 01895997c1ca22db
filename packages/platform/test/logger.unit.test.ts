/**
 * The logger never writes credentials: request headers and token fields, and the arguments of a Redis command
 * that ioredis attaches to each error reply (err.command = { name, args }): AUTH's password on a reconnect,
 * the rate limiters' keys (console users' e-mails) when Redis refuses a write.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';

/** What ioredis rejects with on an error reply: a ReplyError carrying the command it answered. */
class ReplyError extends Error {
  command?: { name: string; args: unknown[] };
  constructor(message: string, command: { name: string; args: unknown[] }) {
    super(message);
    this.name = 'ReplyError';
    this.command = command;
  }
}

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('test', 'debug', destination), lines };
}

describe('createLogger', () => {
  it("leaves out a Redis error's command arguments (a wrong password, a limiter key), keeping the message and command name", () => {
    const { logger, lines } = capture();
    const auth = new ReplyError('WRONGPASS invalid username-password pair', {
      name: 'hello',
      args: ['3', 'AUTH', 'default', 's3cret'],
    });
    const limiter = new ReplyError("READONLY You can't write against a read only replica.", {
      name: 'evalsha',
      args: ['abc123', '1', 'console-sign-in:desk@airline.example', '1'],
    });
    logger.error({ queue: 'hotel', err: auth }, 'worker error');
    logger.warn({ err: limiter }, 'console sign-in limit');
    logger.warn({ error: limiter }, 'passed on as another field');
    const out = lines.join('');
    expect(lines).toHaveLength(3);
    expect(out).not.toContain('s3cret');
    expect(out).not.toContain('desk@airline.example');
    expect(out).toContain('WRONGPASS invalid username-password pair');
    const first = JSON.parse(lines[0]!) as { err: { command: { name: string } } };
    expect(first.err.command.name).toBe('hello');
  });

  it('leaves out credentials in headers and token fields', () => {
    const { logger, lines } = capture();
    logger.info({ req: { headers: { authorization: 'Bearer abc.def' } }, body: { password: 'hunter22' } }, 'x');
    expect(lines.join('')).not.toMatch(/abc\.def|hunter22/);
  });
});
