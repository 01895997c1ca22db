import { randomBytes } from 'node:crypto';
import { checkSharedKeys, Keyring, loadConfig } from '../src';

const key = () => randomBytes(32).toString('base64');

describe('Keyring (supplier credentials and traveller fields at rest)', () => {
  it('opens what it sealed for the same owner, and nothing for another owner or a tampered text', () => {
    const k = Keyring.parse(`k1:${key()}`);
    const sealed = k.seal('duffel_test_abc', 'airline-a');
    expect(sealed).toMatch(/^v2\.k1\./);
    expect(sealed).not.toContain('duffel_test_abc');
    expect(k.open(sealed, 'airline-a')).toBe('duffel_test_abc');
    expect(() => k.open(sealed, 'airline-b')).toThrow('does not open');
    const body = sealed.split('.')[2]!;
    const flipped = Buffer.from(body, 'base64');
    flipped[flipped.length - 1]! ^= 1;
    expect(() => k.open(`v2.k1.${flipped.toString('base64')}`, 'airline-a')).toThrow('does not open');
  });

  it('rotates: the newest key seals, an older listed key still opens, an unlisted one does not', () => {
    const old = key();
    const before = Keyring.parse(`k1:${old}`).seal('secret', 'a');
    const rotated = Keyring.parse(`k2:${key()},k1:${old}`);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.open(before, 'a')).toBe('secret');
    const resealed = rotated.reseal(before, 'a')!;
    expect(Keyring.keyIdOf(resealed)).toBe('k2');
    expect(rotated.reseal(resealed, 'a')).toBeNull();
    expect(() => Keyring.parse(`k2:${key()}`).open(before, 'a')).toThrow('not in the key list');
  });

  it('refuses a malformed key list without echoing the key', () => {
    expect(() => Keyring.parse('k1:short')).toThrow('must be 32 bytes');
    expect(() => Keyring.parse('k1:short')).not.toThrow('short');
    const k = key();
    expect(() => Keyring.parse(`k1:${k},k1:${k}`)).toThrow('listed twice');
    expect(() => loadConfig({ SUPPLIER_CREDENTIALS_KEY: 'k1:nope' })).toThrow('SUPPLIER_CREDENTIALS_KEY');
  });

  it('production refuses a minted key; development warns', () => {
    const warnings: string[] = [];
    const dev = loadConfig({ WEBHOOK_SECRET_KEY: key() });
    checkSharedKeys(dev, { warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringContaining('SUPPLIER_CREDENTIALS_KEY is unset')]);
    const prod = loadConfig({ NODE_ENV: 'production', OPS_TOKEN: 'x'.repeat(20), WEBHOOK_SECRET_KEY: key() });
    expect(() => checkSharedKeys(prod, { warn: () => undefined })).toThrow(
      'SUPPLIER_CREDENTIALS_KEY is required in production',
    );
    const set = loadConfig({
      NODE_ENV: 'production',
      OPS_TOKEN: 'x'.repeat(20),
      WEBHOOK_SECRET_KEY: key(),
      SUPPLIER_CREDENTIALS_KEY: `k1:${key()}`,
    });
    expect(() => checkSharedKeys(set, { warn: () => undefined })).not.toThrow();
    // The auth service checks only the key it uses (it seals its signing keys with SUPPLIER_CREDENTIALS_KEY).
    const authOnly = loadConfig({ NODE_ENV: 'production', OPS_TOKEN: 'x'.repeat(20) });
    expect(() => checkSharedKeys(authOnly, { warn: () => undefined }, ['SUPPLIER_CREDENTIALS_KEY'])).toThrow(
      'SUPPLIER_CREDENTIALS_KEY is required in production',
    );
    const authSet = loadConfig({
      NODE_ENV: 'production',
      OPS_TOKEN: 'x'.repeat(20),
      SUPPLIER_CREDENTIALS_KEY: `k1:${key()}`,
    });
    expect(() => checkSharedKeys(authSet, { warn: () => undefined }, ['SUPPLIER_CREDENTIALS_KEY'])).not.toThrow();
  });
});
