import { Keyring, KeyringError } from './keyring';

/** A travel document as the airline gives it (PUT /crew/travellers/{employee_id}). */
export interface IdentityDocument {
  type: string;
  number: string;
  issuing_country: string;
  expires_on: string;
}

/** The personal fields of a traveller profile: stored only sealed (one JSON text per profile). */
export interface PersonalData {
  date_of_birth?: string;
  gender?: string;
  title?: string;
  phone_number?: string;
  identity_document?: IdentityDocument;
}

export const PERSONAL_FIELDS = [
  'date_of_birth',
  'gender',
  'title',
  'phone_number',
  'identity_document',
] as const satisfies readonly (keyof PersonalData)[];

/** What a traveller row carries of the personal fields: the sealed text, and a plain date of birth from before sealing. */
export interface SealedPersonal {
  personal_sealed: string | null;
  legacy_date_of_birth: string | null;
}

/** The columns a write stores (the db package stores them as given). */
export interface SealedColumns {
  personal_sealed: string | null;
  has_date_of_birth: boolean;
  /** A write always clears the legacy plain column: the date of birth moves into the sealed text. */
  date_of_birth: null;
}

export interface OpenedPersonal {
  data: PersonalData;
  /** A sealed text was there but did not open (another airline's row, a key no longer listed): read as absent. */
  unreadable: boolean;
}

/**
 * Seals and opens traveller personal data with the services' keyring, bound to the airline: a sealed text
 * copied onto another airline's row does not open, and is then read as if nothing were set (never a 500).
 * The db package only stores and returns the text; every reader opens it here.
 */
export class TravellerVault {
  constructor(private readonly keyring: Keyring) {}

  /** The key list of SUPPLIER_CREDENTIALS_KEY (config.supplierCredentialsKey), which also seals supplier credentials. */
  static fromKey(keyList: string): TravellerVault {
    return new TravellerVault(Keyring.parse(keyList));
  }

  seal(airlineId: string, data: PersonalData): SealedColumns {
    const present = Object.fromEntries(PERSONAL_FIELDS.filter((f) => data[f] !== undefined).map((f) => [f, data[f]]));
    return {
      personal_sealed: Object.keys(present).length ? this.keyring.seal(JSON.stringify(present), airlineId) : null,
      has_date_of_birth: data.date_of_birth !== undefined,
      date_of_birth: null,
    };
  }

  open(airlineId: string, row: SealedPersonal): OpenedPersonal {
    const legacy: PersonalData = row.legacy_date_of_birth ? { date_of_birth: row.legacy_date_of_birth } : {};
    if (!row.personal_sealed) return { data: legacy, unreadable: false };
    try {
      return {
        data: { ...legacy, ...(JSON.parse(this.keyring.open(row.personal_sealed, airlineId)) as PersonalData) },
        unreadable: false,
      };
    } catch (err) {
      if (!(err instanceof KeyringError) && !(err instanceof SyntaxError)) throw err;
      return { data: legacy, unreadable: true };
    }
  }

  /**
   * Traveller rows (of loadBookingFacts) with their date of birth opened. Opening is deferred to the first read
   * of `date_of_birth`: a roster's context holds every crew member (14k on a big airline, about 10 µs each),
   * while only the crew of a flight booking is ever asked.
   */
  openTravellers<T extends SealedPersonal>(
    airlineId: string,
    rows: readonly T[],
  ): (Omit<T, keyof SealedPersonal> & { date_of_birth: string | null })[] {
    return rows.map((row) => {
      const { personal_sealed, legacy_date_of_birth, ...rest } = row;
      let data: PersonalData | undefined;
      const open = () => (data ??= this.open(airlineId, { personal_sealed, legacy_date_of_birth }).data);
      Object.defineProperty(rest, 'date_of_birth', { enumerable: true, get: () => open().date_of_birth ?? null });
      // The rest a supplier's order may need (title, gender, phone, document), opened with it; not enumerable,
      // so a logged or serialised context never carries it.
      Object.defineProperty(rest, 'personal', { enumerable: false, get: open });
      return rest as Omit<T, keyof SealedPersonal> & { date_of_birth: string | null };
    });
  }

  /** loadBookingFacts' answer with its travellers opened: what the engine's bookingContextOf takes. */
  openFacts<T extends SealedPersonal, F extends { travellers: readonly T[] }>(
    airlineId: string,
    facts: F & { travellers: readonly T[] },
  ): Omit<F, 'travellers'> & { travellers: (Omit<T, keyof SealedPersonal> & { date_of_birth: string | null })[] } {
    return { ...facts, travellers: this.openTravellers(airlineId, facts.travellers) };
  }
}
