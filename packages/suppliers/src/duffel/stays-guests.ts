import type { StaysBooking } from '@duffel/api/types';
import { SupplierError, SupplierErrorCode } from '../errors';
import type { HotelGuest, HotelLookupHint } from '../types';

/** Who stays and how the hotel reaches them, as Stays needs it. */
export interface StayGuest {
  given_name: string;
  family_name: string;
  email: string;
  phone_number: string;
}

/** A confirmed booking at the hint's accommodation and dates, for the hint's guest when it names one. */
export function sameStay(
  b: StaysBooking,
  hint: Omit<HotelLookupHint, 'traveller'> & { traveller?: HotelGuest },
): boolean {
  if (
    b.status !== 'confirmed' ||
    b.accommodation.id !== hint.property_id ||
    b.check_in_date !== hint.check_in_date ||
    b.check_out_date !== hint.check_out_date
  )
    return false;
  if (!hint.traveller) return true;
  const name = hint.traveller.name.trim().toLowerCase();
  return (
    b.email.toLowerCase() === hint.traveller.email.toLowerCase() ||
    b.guests.some((g) => `${g.given_name} ${g.family_name}`.toLowerCase() === name)
  );
}

/** Stays needs a given and a family name, an e-mail and an E.164 phone: refused before any call without them. */
export function guestOf(traveller: HotelGuest, phone: string | undefined): StayGuest {
  const [given = '', ...rest] = traveller.name.trim().split(/\s+/);
  const family = rest.join(' ');
  const missing = [
    !given || !family ? 'name (given and family)' : null,
    traveller.email ? null : 'email',
    phone && /^\+[1-9]\d{6,14}$/.test(phone) ? null : 'phone_number (E.164)',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0) {
    throw new SupplierError(
      'refusal',
      SupplierErrorCode.INVALID_TRAVELLER,
      `hotel.book: Duffel Stays needs the traveller's ${missing.join(', ')}`,
      {
        operation: 'hotel.book',
        details: missing.map((m) => ({ field: `/traveller/${m.split(' ')[0]}`, issue: 'is required by Duffel Stays' })),
      },
    );
  }
  return { given_name: given, family_name: family, email: traveller.email, phone_number: phone! };
}
