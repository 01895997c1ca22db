import type { CrewMember, Pairing } from '@crew/contracts';

/**
 * Streaming 32-bit FNV-1a hash, fed field by field so no JSON of the pairing is built: a
 * submission hashes ~25M characters, so it takes two characters (one 32-bit word) per
 * multiply. A signature is only ever compared with the same pairing's previous signature,
 * where a 2^-32 chance of a false "unchanged" is acceptable.
 */
class Fnv1a {
  private h = 0x811c9dc5;
  private fields = 0;

  add(value: string | number | boolean | undefined | null): this {
    const text = typeof value === 'string' ? value : value === undefined || value === null ? '\u0000' : String(value);
    let h = this.h;
    const n = text.length;
    let i = 0;
    for (; i + 1 < n; i += 2) h = Math.imul(h ^ (text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)), 16777619);
    if (i < n) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    // A separator after every field keeps ('ab','c') and ('a','bc') apart.
    this.h = Math.imul(h ^ 0xffff001f, 16777619);
    this.fields++;
    return this;
  }

  digest(): string {
    return `${(this.h >>> 0).toString(36)}.${this.fields.toString(36)}`;
  }
}

/**
 * Stable signature of everything in a pairing except its crew list. Fields are fed in a fixed
 * order (not the object's key order), with counts, so the airline's JSON key order does not
 * matter and nesting cannot be confused.
 */
export function pairingSignature(p: Pairing): string {
  const h = new Fnv1a();
  h.add(p.pairing_number)
    .add(p.origin_base)
    .add(p.terminus_base)
    .add(p.check_in_local)
    .add(p.check_out_local)
    .add(p.tafb_hours);
  h.add(p.duty_periods.length);
  for (const d of p.duty_periods) {
    h.add(d.duty_period_num).add(d.duty_date).add(d.fdp_start_local).add(d.fdp_end_local).add(d.legs.length);
    for (const l of d.legs) {
      h.add(l.leg_sequence).add(l.activity_code).add(l.flight_number).add(l.from_airport).add(l.to_airport);
      h.add(l.dep_time_local).add(l.arr_time_local).add(l.expected_dep_time_local).add(l.expected_arr_time_local);
      h.add(l.aircraft_type).add(l.aircraft_tail).add(l.block_hours).add(l.booking_required);
    }
    const o = d.layover;
    if (o) h.add(1).add(o.station).add(o.booking_required).add(o.checkin_time_local).add(o.checkout_time_local);
    else h.add(0);
  }
  return h.digest();
}

/**
 * Signature of a pairing's crew list as the rows carry it (each member's employee_id, traveller_email, name,
 * rank and home_base, in order). With pairingSignature it covers everything a pairing's flattened rows are
 * made of but their row numbers.
 */
export function crewSignature(crew: readonly CrewMember[]): string {
  const h = new Fnv1a();
  h.add(crew.length);
  for (const c of crew) h.add(c.employee_id).add(c.traveller_email).add(c.name).add(c.rank).add(c.home_base);
  return h.digest();
}
