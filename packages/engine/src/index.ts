/** @crew/engine: the pure schedule diff (spec 1 rules 3-7 and 10, DESIGN 6), the booking policy and the rules of booking tasks. */
export { flattenRoster } from './flatten';
export { diffRoster, cancellationCutoffOf, settlesOnRerun } from './diff';
export { rosterState, nextRosterState } from './state';
export { priorityFor } from './priority';
export { legKey, layoverKey, itemKey, auditEventKey } from './keys';
export { pairingSignature } from './signature';
export { SUBTYPE_OF, type DiffItemClassification } from './items';
export { instantOf, localDateOf, addDays, inWindow, type DateWindow } from './time';
export * from './types';
export * from './hotel-config';
export * from './policy';
export * from './booking-tasks';
export * from './fx';
export * from './stations';
export * from './rooming';
export * from './coverage';
export * from './plan';
export { diffStateOf, diffAgainst, requestedBookingsByKey, type DiffState, type WindowBookingRow } from './diff-state';
