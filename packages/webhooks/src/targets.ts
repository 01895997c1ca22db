import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/*
 * Where a webhook may be sent (SSRF): the api checks an endpoint's URL when the airline registers it (its
 * scheme and a literal host; a host name is not resolved then), the worker checks the address each delivery
 * really connects to.
 */

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as its IPv4 address. */
function normalise(ip: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return { ip: mapped[1]!, family: 'ipv4' };
  return { ip, family: isIP(ip) === 6 ? 'ipv6' : 'ipv4' };
}

export const isLoopbackAddress = (ip: string) => {
  const n = normalise(ip);
  return LOOPBACK.check(n.ip, n.family);
};
export const isPrivateAddress = (ip: string) => {
  const n = normalise(ip);
  return PRIVATE.check(n.ip, n.family);
};

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: the operator lets webhooks reach private ranges. */
  allowPrivate: boolean;
  /** Loopback (and plain http to it) is allowed outside production, for development and tests. */
  production: boolean;
}

/** Why an address may not be reached, or null. The address is not named: the reason may reach the airline. */
export function refusedAddress(policy: TargetPolicy, ip: string): string | null {
  if (policy.allowPrivate) return null;
  if (isLoopbackAddress(ip)) return policy.production ? 'the host is a loopback address' : null;
  return isPrivateAddress(ip) ? 'the host is in a private, loopback or link-local range' : null;
}

/**
 * Why a URL may not be a webhook target: its scheme and a literal host only. A host name is not resolved here:
 * what it resolves to when a delivery connects is what counts (guardedLookup), and it may change after this.
 */
export function refusedUrl(policy: TargetPolicy, raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (u.username || u.password) return 'credentials in the URL are not allowed';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) ? host : null;
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  if (u.protocol === 'http:') {
    if (policy.production) return 'an https URL is required';
    if (!(loopbackName || (literal && isLoopbackAddress(literal))))
      return 'http is allowed only to a loopback host (outside production); use https';
  } else if (u.protocol !== 'https:') return 'an https URL is required';
  if (literal) return refusedAddress(policy, literal);
  if (loopbackName) return refusedAddress(policy, '127.0.0.1');
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for http(s).request that refuses private addresses: the check happens on the address the
 * socket really connects to, so a name that resolves differently later (DNS rebinding) gains nothing.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean } & Record<string, unknown>, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses;
      for (const a of list) {
        const why = refusedAddress(policy, a.address);
        if (why) {
          // Names the host and its address for the worker's log; the airline reads attemptErrorOf's phrase.
          const e = new Error(
            `webhook target refused: ${hostname} resolves to ${a.address} (${why})`,
          ) as NodeJS.ErrnoException;
          e.code = 'EWEBHOOKTARGET';
          return callback(e, '');
        }
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
