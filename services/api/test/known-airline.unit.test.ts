import { requireKnownAirline } from '../src/auth/known-airline';
import { InvalidTokenError, type Principal } from '../src/auth/token-verifier';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const principal = (airline_id: string): Principal => ({
  airline_id,
  user_id: '',
  email: '',
  client_id: 'cl',
  scopes: new Set(),
  expires_at_ms: Number.MAX_SAFE_INTEGER,
});

function setup(existing: Set<string>) {
  let clock = 0;
  const queries: string[] = [];
  const verify = requireKnownAirline(
    async (token) => principal(token),
    async (id) => {
      queries.push(id);
      return existing.has(id);
    },
    30_000,
    () => clock,
  );
  return { verify, queries, advance: (ms: number) => void (clock += ms) };
}

describe('requireKnownAirline', () => {
  it('asks once per TTL for an existing airline, and again after it', async () => {
    const { verify, queries, advance } = setup(new Set([A]));
    await Promise.all([verify(A), verify(A), verify(A)]);
    await verify(A);
    expect(queries).toEqual([A]);
    advance(30_001);
    await verify(A);
    expect(queries).toEqual([A, A]);
  });

  it('refuses an unknown airline every time without remembering it, and forgets a removed one after the TTL', async () => {
    const existing = new Set([A]);
    const { verify, queries, advance } = setup(existing);
    await expect(verify(B)).rejects.toBeInstanceOf(InvalidTokenError);
    existing.add(B);
    await expect(verify(B)).resolves.toMatchObject({ airline_id: B });
    expect(queries).toEqual([B, B]);
    await verify(A);
    existing.delete(A);
    advance(30_001);
    await expect(verify(A)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('lets a database error through (not a 401)', async () => {
    const verify = requireKnownAirline(
      async (t) => principal(t),
      async () => Promise.reject(new Error('db down')),
    );
    await expect(verify(A)).rejects.toThrow('db down');
  });
});
