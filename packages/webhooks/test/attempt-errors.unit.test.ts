import { attemptErrorOf, UNREACHABLE_NAME, visibleAttemptError } from '../src';

describe("a failed attempt's error as the airline reads it", () => {
  it('is a phrase per error code, never the message', () => {
    expect(attemptErrorOf({ code: 'EWEBHOOKTARGET' })).toBe(UNREACHABLE_NAME);
    expect(attemptErrorOf({ code: 'ENOTFOUND' })).toBe(UNREACHABLE_NAME);
    expect(attemptErrorOf({ code: 'EAI_AGAIN' })).toBe(UNREACHABLE_NAME);
    expect(attemptErrorOf({ code: 'ECONNREFUSED' })).toBe('connection refused');
    expect(attemptErrorOf({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })).toBe(
      'connection failed (ERR_TLS_CERT_ALTNAME_INVALID)',
    );
    expect(attemptErrorOf({ code: 'x 10.0.0.1' })).toBe('connection failed');
    expect(attemptErrorOf({})).toBe('connection failed');
  });

  it("reads an attempt stored in Node's wording as its phrase; other errors as stored", () => {
    expect(visibleAttemptError('webhook target refused: pg.svc resolves to 10.0.0.9 is in a private range')).toBe(
      UNREACHABLE_NAME,
    );
    expect(visibleAttemptError('getaddrinfo ENOTFOUND postgres.crew.svc.cluster.local')).toBe(UNREACHABLE_NAME);
    expect(visibleAttemptError('connect ECONNREFUSED 10.1.2.3:443')).toBe('connection refused');
    expect(visibleAttemptError('HTTP 503')).toBe('HTTP 503');
    expect(visibleAttemptError('redirect (302) not followed')).toBe('redirect (302) not followed');
    expect(visibleAttemptError(UNREACHABLE_NAME)).toBe(UNREACHABLE_NAME);
    expect(visibleAttemptError(null)).toBeNull();
  });
});
