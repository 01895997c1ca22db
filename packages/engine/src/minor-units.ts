import type { Money } from '@crew/contracts';

/*
 * Amounts at the precision of their currency: two decimals for most, none for JPY, three for KWD or BHD (ISO 4217
 * minor units, as Intl knows them). Invoice comparisons allow half a minor unit either way, no more.
 */

const digitsOf = new Map<string, number>();

/** The currency's minor-unit digits (2 for USD, 0 for JPY, 3 for KWD); 2 for a code Intl does not know. */
export function minorDigits(currency: string): number {
  let d = digitsOf.get(currency);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    digitsOf.set(currency, d);
  }
  return d;
}

/** Half of the currency's minor unit: the tolerance of a comparison (0.005 USD, 0.5 JPY). */
export function halfMinorUnit(currency: string): number {
  return 0.5 / 10 ** minorDigits(currency);
}

/** The amount rounded to the currency's minor unit (half away from zero, robust to binary fractions). */
export function roundMinor(amount: number, currency: string): number {
  const scale = 10 ** minorDigits(currency);
  const rounded = (Math.sign(amount) * Math.round(Math.abs(amount) * scale + 1e-9)) / scale;
  return rounded === 0 ? 0 : rounded;
}

/** Money rounded to its currency's minor unit. */
export function money(amount: number, currency: string): Money {
  return { amount: roundMinor(amount, currency), currency };
}
