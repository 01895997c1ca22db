import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';

/** Every classification of spec 2.4. The set may grow; readers must tolerate unknown values. */
export const CLASSIFICATIONS = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CITY_CHANGE',
  'LAYOVER_CANCELLED',
  'LAYOVER_EXTENDED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'DEADHEAD_CANCELLED',
  'PAIRING_NEW',
  'PAIRING_EXTENDED',
  'PAIRING_SHORTENED',
  'PAIRING_CANCELLED',
  'SWAP_OUT',
  'SWAP_IN',
  'STATUS_TRANSITION',
  'IROP_NEW_DEADHEAD',
  'IROP_REROUTE',
  'IROP_HOTEL_EXTEND',
  'IROP_HOTEL_CANCEL',
  'DATA_QUALITY_FLAG',
  'DATA_QUALITY_QUARANTINE',
  'DUPLICATE_ROW',
  'UNCHANGED',
] as const;
/** What requests may send (injection, commit): one of the known values. */
export const Classification = StringEnum(CLASSIFICATIONS);
export type Classification = Static<typeof Classification>;

/**
 * What responses carry: an open set (spec 2.4 and 9.3: new values may appear within v1, clients must handle
 * unknown ones). The known values are listed for generated clients; any other string is allowed.
 */
export const ClassificationValue = Type.Unsafe<Classification | (string & {})>({
  title: 'Classification',
  description:
    'An open set: the known values of spec 2.4, and any other string a later release may add (handle unknown values).',
  anyOf: [{ type: 'string', enum: [...CLASSIFICATIONS] }, { type: 'string' }],
});
export type ClassificationValue = Static<typeof ClassificationValue>;

/** The classifications the schedule-diff path derives (spec 2.4, last paragraph). */
export const DIFF_CLASSIFICATIONS = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CITY_CHANGE',
  'LAYOVER_EXTENDED',
  'LAYOVER_CANCELLED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'DEADHEAD_CANCELLED',
  'SWAP_OUT',
  'SWAP_IN',
  'DUPLICATE_ROW',
  'DATA_QUALITY_FLAG',
  'UNCHANGED',
] as const satisfies readonly Classification[];

/** The classifications recorded as audit events (spec 6) rather than action items. */
export const AUDIT_CLASSIFICATIONS = [
  'DATA_QUALITY_FLAG',
  'DATA_QUALITY_QUARANTINE',
  'DUPLICATE_ROW',
] as const satisfies readonly Classification[];
export const AuditClassification = StringEnum(AUDIT_CLASSIFICATIONS);
export type AuditClassification = Static<typeof AuditClassification>;
