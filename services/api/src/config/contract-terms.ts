import type { ContractPatchBody, ValidationIssue } from '@crew/contracts';
import type { ContractCancellationTerms, HotelContractRow } from '@crew/db';
import { cancellationTermsIssues, isTimeZone } from '@crew/engine';
import { ApiError } from '@crew/platform';
import type { PropertyTimeZone } from './hotels.service';

/** A contract's cost fields after a create or PATCH, ready to store. */
export interface ContractCostFields {
  cancellation_terms: ContractCancellationTerms | null;
  hotel_time_zone: string | null;
  incidentals_covered?: boolean;
}

type Stored = Pick<HotelContractRow, 'cancellation_terms' | 'hotel_time_zone'> | null;

/**
 * The contract's cancellation terms with a create's or PATCH's fields applied: an omitted field keeps its value,
 * null clears it, and nothing left means no terms. Terms need a deadline and well-formed fees (the engine names
 * each bad field), and a time zone to read the deadline in: the one given, else the one stored, else the hotel
 * inventory's for the property. A fault is 422 naming every bad field.
 */
export async function contractCostFields(
  stored: Stored,
  body: ContractPatchBody,
  inventoryZone: () => ReturnType<PropertyTimeZone>,
): Promise<ContractCostFields> {
  const before = stored?.cancellation_terms ?? null;
  const pick = <K extends keyof ContractCancellationTerms>(k: K) =>
    body[k] === undefined ? (before?.[k] ?? null) : body[k];
  const merged = {
    cancellation_deadline: pick('cancellation_deadline'),
    late_cancellation_fee: pick('late_cancellation_fee'),
    no_show_fee: pick('no_show_fee'),
  };
  const none = Object.values(merged).every((v) => v === null);
  const issues: ValidationIssue[] = none ? [] : cancellationTermsIssues(merged);
  let zone = body.hotel_time_zone === undefined ? (stored?.hotel_time_zone ?? null) : body.hotel_time_zone;
  if (zone !== null && !isTimeZone(zone)) {
    issues.push({ field: '/hotel_time_zone', issue: 'must be an IANA time zone (Europe/London, say)' });
  } else if (!none && zone === null) {
    zone = await inventoryZone();
    if (zone === null || !isTimeZone(zone))
      issues.push({
        field: '/hotel_time_zone',
        issue: 'is required with cancellation terms: the hotel inventory does not know this hotel’s time zone',
      });
  }
  if (issues.length) throw ApiError.validation(issues, 'The cancellation terms are not valid');
  const terms: ContractCancellationTerms | null = none
    ? null
    : {
        cancellation_deadline: merged.cancellation_deadline!,
        ...(merged.late_cancellation_fee ? { late_cancellation_fee: merged.late_cancellation_fee } : {}),
        ...(merged.no_show_fee ? { no_show_fee: merged.no_show_fee } : {}),
      };
  return {
    cancellation_terms: terms,
    hotel_time_zone: zone,
    ...(body.incidentals_covered !== undefined ? { incidentals_covered: body.incidentals_covered } : {}),
  };
}
