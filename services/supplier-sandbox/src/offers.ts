/**
 * Stateless flight offer ids: a base64url payload naming the flight and the time it was offered, followed
 * by an HMAC. Booking re-derives the offer from the payload (the inventory is deterministic) and checks its
 * age against the sandbox clock, so offers need no storage and survive until the 20-minute validity ends.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CABINS, type Cabin } from './schemas';

/** Spec section 8: a flight option is valid for 20 minutes from the search that produced it. */
export const OFFER_TTL_MS = 20 * 60 * 1000;

export interface OfferKey {
  from: string;
  to: string;
  date: string;
  flightNumber: string;
  cabin: Cabin;
  /** Sandbox-clock milliseconds of the search. */
  issuedAt: number;
}

const VERSION = 1;

export class OfferCodec {
  private readonly secret: Buffer;

  /** Without a secret, one is drawn per process: offers then die with the process, as a real session would. */
  constructor(secret?: string) {
    this.secret = secret ? Buffer.from(secret) : randomBytes(32);
  }

  encode(key: OfferKey): string {
    const payload = Buffer.from(
      JSON.stringify([VERSION, key.from, key.to, key.date, key.flightNumber, key.cabin, key.issuedAt]),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The key of a genuine id, or undefined for anything forged, truncated or from another process. */
  decode(id: string): OfferKey | undefined {
    const [payload, signature, extra] = id.split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(fields) || fields[0] !== VERSION) return undefined;
    const [, from, to, date, flightNumber, cabin, issuedAt] = fields as unknown[];
    if (
      typeof from !== 'string' ||
      typeof to !== 'string' ||
      typeof date !== 'string' ||
      typeof flightNumber !== 'string'
    )
      return undefined;
    if (!CABINS.includes(cabin as Cabin) || typeof issuedAt !== 'number') return undefined;
    return { from, to, date, flightNumber, cabin: cabin as Cabin, issuedAt };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 16).toString('base64url');
  }
}
