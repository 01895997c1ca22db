import { InvalidTokenError, rememberVerifiedTokens, type Principal } from '../src/auth/token-verifier';

const A = '00000000-0000-4000-8000-00000000000a';

function setup(expiresAtMs: number, ttlMs = 60_000) {
  let clock = 1_000_000;
  const checked: string[] = [];
  const verify = rememberVerifiedTokens(
    async (token): Promise<Principal> => {
      checked.push(token);
      if (token.startsWith('bad')) throw new InvalidTokenError('signature');
      return { airline_id: A, user_id: '', email: '', client_id: token, scopes: new Set(), expires_at_ms: expiresAtMs };
    },
    ttlMs,
    () => clock,
  );
  return { verify, checked, advance: (ms: number) => void (clock += ms), at: () => clock };
}

describe('rememberVerifiedTokens', () => {
  it('checks a token once within the TTL, and again after it', async () => {
    const { verify, checked, advance } = setup(Number.MAX_SAFE_INTEGER);
    await verify('t1');
    advance(59_999);
    await expect(verify('t1')).resolves.toMatchObject({ client_id: 't1' });
    expect(checked).toEqual(['t1']);
    advance(1);
    await verify('t1');
    expect(checked).toEqual(['t1', 't1']);
  });

  it('never takes a token past its expiry on trust', async () => {
    const { verify, checked, advance } = setup(1_000_000 + 10_000);
    await verify('t1');
    advance(9_999);
    await verify('t1');
    expect(checked).toEqual(['t1']);
    advance(1);
    await verify('t1');
    expect(checked).toEqual(['t1', 't1']);
  });

  it('remembers no token that failed, and keeps tokens apart', async () => {
    const { verify, checked } = setup(Number.MAX_SAFE_INTEGER);
    await expect(verify('bad-1')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(verify('bad-1')).rejects.toBeInstanceOf(InvalidTokenError);
    await verify('t1');
    await expect(verify('t2')).resolves.toMatchObject({ client_id: 't2' });
    expect(checked).toEqual(['bad-1', 'bad-1', 't1', 't2']);
  });
});
