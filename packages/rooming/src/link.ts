import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The signed link of a rooming-list e-mail: the worker sends it, the api's confirmation page checks it. The link
 * is the hotel's only credential: it names one list version of one hotel and expires at the list's answer
 * deadline. HMAC-SHA256 over the claims, with a key derived from OPS_TOKEN (api and worker share it already), so
 * no extra secret needs distributing; rotating OPS_TOKEN invalidates every outstanding link (the operator can
 * resend the lists).
 */

/** The path of the hotel confirmation page: the api serves it (outside /api/v1: the link is the credential), the worker's e-mail links to it. */
export const CONFIRMATION_PATH = '/hotel/rooming-lists';

export interface RoomingLinkClaims {
  list_id: string;
  hotel_config_id: number;
  version: number;
  /** Expiry, epoch seconds. */
  exp: number;
}

export function roomingLinkKey(opsToken: string): Buffer {
  return createHmac('sha256', opsToken).update('crew-travel rooming-list link v1').digest();
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

export function signRoomingLink(key: Buffer, claims: RoomingLinkClaims): string {
  const body = Buffer.from(
    JSON.stringify({ l: claims.list_id, h: claims.hotel_config_id, v: claims.version, exp: claims.exp }),
  ).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export type RoomingLinkCheck = { ok: true; claims: RoomingLinkClaims } | { ok: false; reason: 'INVALID' | 'EXPIRED' };

/** A tampered or malformed token is INVALID; a genuine one past its expiry is EXPIRED. */
export function verifyRoomingLink(key: Buffer, token: string, nowMs: number): RoomingLinkCheck {
  const m = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { ok: false, reason: 'INVALID' };
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = mac(key, m[1]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'INVALID' };
  let c: { l?: unknown; h?: unknown; v?: unknown; exp?: unknown };
  try {
    c = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as typeof c;
  } catch {
    return { ok: false, reason: 'INVALID' };
  }
  if (typeof c.l !== 'string' || typeof c.h !== 'number' || typeof c.v !== 'number' || typeof c.exp !== 'number')
    return { ok: false, reason: 'INVALID' };
  if (c.exp * 1000 <= nowMs) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, claims: { list_id: c.l, hotel_config_id: c.h, version: c.v, exp: c.exp } };
}

/** The form's anti-forgery field: bound to the link, so only a page served for this link can post it. */
export function roomingFormToken(key: Buffer, token: string): string {
  return mac(key, `form:${token}`).toString('base64url');
}
