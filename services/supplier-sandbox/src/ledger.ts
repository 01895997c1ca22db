/**
 * What the sandbox's hotel reservations and flight orders share: its clock, one sequence of both (the control view
 * lists them in it), fresh supplier references and prices moved by a price_change fault.
 */
import { randomBytes } from 'node:crypto';

export interface Ledger {
  now(): number;
  isoNow(): string;
  /** The next place in the sequence the control view lists reservations and orders in. */
  nextSeq(): number;
}

/** A price moved by `delta`, to the cent and never below zero. */
export function moved(amount: number, delta: number): number {
  return Math.max(0, Math.round((amount + delta) * 100) / 100);
}

/** A fresh supplier reference such as `HR-3F9A0C12B7`, unique within `taken`. */
export function newRef(prefix: string, taken: Map<string, unknown>): string {
  for (;;) {
    const ref = `${prefix}-${randomBytes(5).toString('hex').toUpperCase()}`;
    if (!taken.has(ref)) return ref;
  }
}
