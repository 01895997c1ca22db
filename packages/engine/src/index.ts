/** @crew/engine: the pure schedule diff (spec 1 rules 3-7 and 10, DESIGN 6), the booking policy and the rules of booking tasks. */
export { flattenRoster } from './flatten';
export { diffRoster, diffRosterInParts, cancellationCutoffOf, settlesOnRerun, onlyPairings } from './diff';
export {
  changedPairings,
  diffBasisOf,
  windowMoved,
  DIFF_BASIS_VERSION,
  type DiffBasis,
  type DiffBasisNow,
  type ElementBasis,
} from './changed-pairings';
export {
  pairingElementRanges,
  type ElementGuide,
  pairingRowCount,
  rewrittenPairings,
  pairingShapesOf,
  type PairingShape,
  knownElements,
  flattenElements,
  elementsOfWhole,
  type RosterElements,
  type KnownElements,
  type ElementsFlattened,
} from './roster-elements';
export { rosterState, nextRosterState, nextRosterStateParts, joinedRosterState, type NextRosterState } from './state';
export {
  isStateLinesText,
  isStateLines,
  stateLinesOf,
  storedStateOfText,
  rosterStateOfStored,
  rosterStateOfLines,
  linesOfState,
  linesOfStateInParts,
  stateLinesText,
  STATE_LINES_VERSION,
  type StateLines,
  type StoredState,
} from './state-lines';
export {
  storedRosterState,
  rosterStateOf,
  STORED_STATE_VERSION,
  type StoredRosterState,
  type RosterStateAsStored,
} from './state-storage';
export { priorityFor, urgentEvents } from './priority';
export {
  legKey,
  layoverKey,
  pairingOfKey,
  itemKey,
  auditEventKey,
  supplierReference,
  taskIdentity,
  taskRefOf,
  type SupplierStep,
} from './keys';
export { pairingSignature } from './signature';
export {
  SUBTYPE_OF,
  itemMessage,
  flightSearchOfItem,
  type DiffItemClassification,
  type ItemFlightSearch,
} from './items';
export { instantOf, localDateOf, addDays, inWindow, type DateWindow } from './time';
export { hotelBookingDate, bookingDateOf, readInWindow, type DatedBooking } from './booking-dates';
export * from './types';
export * from './hotel-config';
export * from './policy';
export * from './flight-options';
export * from './booking-tasks';
export * from './fx';
export * from './stay-rates';
export * from './stations';
export * from './rooming';
export * from './coverage';
export * from './plan';
export * from './lifecycle';
export * from './airline-requests';
export * from './patch-and-delete';
export * from './schedule-state';
export * from './booking-context';
export * from './booking-settlement';
export * from './supplier-steps';
export {
  diffStateOf,
  diffAgainst,
  diffInputOf,
  withKeptHolds,
  requestedBookingsByKey,
  type DiffState,
  type WindowBookingRow,
} from './diff-state';
export {
  carrierOf,
  flightRoute,
  nextSupplierApplies,
  retailOffers,
  orderMayExist,
  latestOrderReference,
  bookTaskReference,
  replacesEarlierOrder,
  lostOrderReference,
  strayOrderPlan,
  strayOrderMessage,
  type StrayOrder,
  supplierSettingIssues,
  fareConditionsFit,
  movedFareFlag,
  BOOK_IN_OWN_SYSTEM,
  type FlightRoute,
  type SupplierSettingFacts,
} from './supplier-order';
export * from './airline-change';
export * from './review';
export * from './review-actions';
export * from './review-state';
export * from './cancellation-terms';
export * from './cancellation-hold';
export * from './invoice-index';
export * from './invoice-matching';
export * from './invoice-reads';
export * from './invoice-line-issues';
export * from './spend-report';
export { normaliseGuestName } from './guest-names';
export { minorDigits, halfMinorUnit, roundMinor } from './minor-units';
export { isTimeZone, zonedInstant, zoneOffsetMinutes, localDateIn } from './time-zones';
export * from './cancellation-plan';
export * from './superseded-tasks';
