import { ErrorCode, TERM_FIELDS, type HotelInput, type RatePeriod, type ValidationIssue } from '@crew/contracts';

/** The negotiated terms of a hotel (what may not change while automated booking is on). */
export type HotelTerms = Omit<HotelInput, 'property_id' | 'name' | 'rate_periods'>;

/** A hotel the airline already has in its config. */
export interface ConfiguredHotel {
  hotel_config_id: number;
  base_station: string;
  property_id: string;
  terms: HotelTerms;
  has_contracts: boolean;
  automated_booking_enabled: boolean;
}

/** What the GDS inventory says of a property: found (with its name) or not. */
export type PropertyLookup = ReadonlyMap<string, { name: string } | null>;

export interface PlannedHotel {
  base_station: string;
  property_id: string;
  name: string | null;
  handler_type: 'GDS' | 'DIRECT';
  terms: HotelTerms;
  /** Where a DIRECT hotel's rooming lists go (not a negotiated term: it may change while automation is on). */
  reservations_email: string | null;
  /** `keep`: rate_periods omitted, legacy rates untouched; `clear`: an explicit []. */
  legacy_rates: 'keep' | 'clear';
  hotel_config_id: number | null;
}

export interface ConfigRefusal {
  status: 409 | 422;
  code: string;
  message: string;
  details: ValidationIssue[];
}

export type HotelConfigPlan = { ok: true; hotels: PlannedHotel[] } | { ok: false; refusal: ConfigRefusal };

/** Terms with absent fields dropped, in a fixed key order, so two equal configurations compare equal. */
export function normalizeTerms(hotel: HotelTerms): HotelTerms {
  const out: Record<string, unknown> = {};
  for (const f of TERM_FIELDS) if (hotel[f] !== undefined) out[f] = hotel[f];
  // Nested too: Postgres jsonb hands back {amount, currency} in its own key order.
  if (hotel.contract_rate)
    out.contract_rate = { amount: hotel.contract_rate.amount, currency: hotel.contract_rate.currency };
  return out as HotelTerms;
}

const sameTerms = (a: HotelTerms, b: HotelTerms) =>
  JSON.stringify(normalizeTerms(a)) === JSON.stringify(normalizeTerms(b));

const POLICY_FIELDS: Record<HotelTerms['policy'], (keyof HotelTerms)[]> = {
  STANDARD: ['standard_check_in_time', 'standard_check_out_time'],
  FLEXIBLE: ['flex_window_minutes'],
  GUARANTEED: ['guaranteed_early_check_in_time', 'guaranteed_late_check_out_time'],
};

/**
 * Spec 4.3 rules for `PUT /crew/config/hotels`, in the order a client should learn of them: structure,
 * rates (belong to contracts), the channel of each property, then conflicts with contracts.
 */
export function planHotelConfig(
  existing: ConfiguredHotel[],
  bases: { base_station: string; hotels: HotelInput[] }[],
  lookup: PropertyLookup,
): HotelConfigPlan {
  const refuse = (status: 409 | 422, code: string, message: string, details: ValidationIssue[]): HotelConfigPlan => ({
    ok: false,
    refusal: { status, code, message, details },
  });

  const structural: ValidationIssue[] = [];
  const seen = new Set<string>();
  bases.forEach((base, i) => {
    if (seen.has(base.base_station))
      structural.push({ field: `/bases/${i}/base_station`, issue: `${base.base_station} appears more than once` });
    seen.add(base.base_station);
    base.hotels.forEach((h, j) => {
      for (const f of POLICY_FIELDS[h.policy]) {
        if (h[f] === undefined)
          structural.push({ field: `/bases/${i}/hotels/${j}/${f}`, issue: `is required for policy ${h.policy}` });
      }
    });
  });
  if (structural.length)
    return refuse(422, ErrorCode.VALIDATION_FAILED, 'The hotel configuration is not valid', structural);

  const withRates: ValidationIssue[] = [];
  bases.forEach((base, i) =>
    base.hotels.forEach((h, j) => {
      if (h.rate_periods && h.rate_periods.length > 0)
        withRates.push({
          field: `/bases/${i}/hotels/${j}/rate_periods`,
          issue: 'rates belong to a contract: create one, then set its rates',
        });
    }),
  );
  if (withRates.length)
    return refuse(
      422,
      ErrorCode.CONTRACT_REQUIRED_FOR_RATE,
      'Rates cannot be set in the hotel configuration',
      withRates,
    );

  const unknown: ValidationIssue[] = [];
  const planned: PlannedHotel[] = [];
  bases.forEach((base, i) =>
    base.hotels.forEach((h, j) => {
      const inventory = lookup.get(h.property_id);
      if (!inventory && !h.chain) {
        unknown.push({
          field: `/bases/${i}/hotels/${j}/property_id`,
          issue: `${h.property_id} is not in the GDS inventory; supply chain for a DIRECT hotel`,
        });
        return;
      }
      const { property_id, name, rate_periods, reservations_email, ...terms } = h;
      const current = existing.find((e) => e.base_station === base.base_station && e.property_id === property_id);
      planned.push({
        base_station: base.base_station,
        property_id,
        name: inventory ? inventory.name : (name ?? null),
        handler_type: inventory ? 'GDS' : 'DIRECT',
        terms: normalizeTerms(terms),
        reservations_email: reservations_email ?? null,
        legacy_rates: rate_periods === undefined ? 'keep' : 'clear',
        hotel_config_id: current?.hotel_config_id ?? null,
      });
    }),
  );
  if (unknown.length)
    return refuse(
      422,
      ErrorCode.UNKNOWN_HOTEL_PROPERTY,
      'A hotel property is not in the GDS inventory and has no chain',
      unknown,
    );

  const conflicts: ValidationIssue[] = [];
  for (const e of existing) {
    const next = planned.find((p) => p.base_station === e.base_station && p.property_id === e.property_id);
    if (!next) {
      if (e.has_contracts)
        conflicts.push({
          field: `/bases`,
          issue: `hotel ${e.property_id} at ${e.base_station} has contracts and cannot be removed`,
        });
    } else if (e.automated_booking_enabled && !sameTerms(e.terms, next.terms)) {
      conflicts.push({
        field: `/bases`,
        issue: `terms of hotel ${e.property_id} at ${e.base_station} cannot change while automated booking is on for it`,
      });
    }
  }
  if (conflicts.length)
    return refuse(409, ErrorCode.CONFLICT, 'The hotel configuration conflicts with existing contracts', conflicts);
  return { ok: true, hotels: planned };
}

/** DESIGN section 4: rate periods lie inside the contract's dates and do not overlap. */
export function contractRateIssues(
  contract: { contract_from: string; contract_to: string },
  periods: RatePeriod[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  periods.forEach((p, i) => {
    if (p.effective_to < p.effective_from)
      issues.push({ field: `/rate_periods/${i}/effective_to`, issue: 'must be on or after effective_from' });
    if (p.effective_from < contract.contract_from || p.effective_to > contract.contract_to) {
      issues.push({
        field: `/rate_periods/${i}`,
        issue: `must lie within the contract (${contract.contract_from}..${contract.contract_to})`,
      });
    }
  });
  const order = periods.map((p, i) => ({ p, i })).sort((a, b) => a.p.effective_from.localeCompare(b.p.effective_from));
  for (let k = 1; k < order.length; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (cur.p.effective_from <= prev.p.effective_to)
      issues.push({ field: `/rate_periods/${cur.i}`, issue: `overlaps rate period ${prev.i}` });
  }
  return issues;
}

/** A contract's dates: to on or after from. */
export function contractDateIssues(contract: { contract_from: string; contract_to: string }): ValidationIssue[] {
  return contract.contract_to < contract.contract_from
    ? [{ field: '/contract_to', issue: 'must be on or after contract_from' }]
    : [];
}

/** A preferred carrier that is also blacklisted is a contradiction. */
export function flightConfigIssues(cfg: {
  preferred_airlines?: string[];
  blacklisted_airlines?: string[];
}): ValidationIssue[] {
  const black = new Set(cfg.blacklisted_airlines ?? []);
  return (cfg.preferred_airlines ?? []).flatMap((c, i) =>
    black.has(c) ? [{ field: `/preferred_airlines/${i}`, issue: `${c} is also blacklisted` }] : [],
  );
}
