import { Type, type Static } from '@sinclair/typebox';
import { Airport, DateString, PageQuery, StringEnum, Timestamp } from './common';

/** Coverage of the roster by bookings (not in the spec). The rule from a row to its state is the engine's (coverageOf). */
export const COVERAGE_STATUSES = ['COVERED', 'AT_RISK', 'UNCOVERED'] as const;
export const CoverageStatus = StringEnum(COVERAGE_STATUSES, {
  description:
    'COVERED: a CONFIRMED/MODIFIED booking holds exactly the rostered stay (leg). AT_RISK: the booking is PENDING, FAILED awaiting retry, NEEDS_REVIEW, its cancellation awaits review, or its stay no longer matches (or is no longer in) the roster. UNCOVERED: no live booking.',
});

export const COVERAGE_ORIGINS = ['ROSTERED', 'DROPPED', 'INJECTED'] as const;
export const CoverageOrigin = StringEnum(COVERAGE_ORIGINS, {
  description:
    'ROSTERED: in the latest processed roster. DROPPED: a live booking whose stay (leg) the roster no longer holds. INJECTED: a stay (leg) the airline injected itself.',
});

export const CoverageQuery = Type.Object(
  {
    from: Type.Optional({
      ...Timestamp,
      description: 'Start of the window of check-in (departure) instants; default now',
    }),
    hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 168, default: 72, description: 'Length of the window in hours' }),
    ),
    station: Type.Optional({
      ...Airport,
      description: 'Only this station (layovers) or departure airport (deadheads)',
    }),
    status: Type.Optional(CoverageStatus),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type CoverageQuery = Static<typeof CoverageQuery>;

export const CoverageCountsByState = Type.Object(
  { COVERED: Type.Integer(), AT_RISK: Type.Integer(), UNCOVERED: Type.Integer() },
  { additionalProperties: false, title: 'CoverageCounts' },
);

const StationCounts = Type.Object(
  { station: Type.String(), COVERED: Type.Integer(), AT_RISK: Type.Integer(), UNCOVERED: Type.Integer() },
  { additionalProperties: false, title: 'CoverageStationCounts' },
);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const coverageRowBase = {
  employee_id: Nullable(Type.String()),
  pairing_number: Nullable(Type.String()),
  duty_date: Nullable(DateString),
  traveller_email: Nullable(Type.String()),
  origin: CoverageOrigin,
  booking_id: Nullable(Type.String({ format: 'uuid' })),
  booking_status: Nullable(Type.String({ description: 'The matching booking’s status' })),
  status: CoverageStatus,
  reason: Nullable(Type.String({ description: 'Why the row is not COVERED' })),
};

export const LayoverCoverage = Type.Object(
  {
    ...coverageRowBase,
    duty_period_num: Nullable(Type.Integer()),
    station: Type.String(),
    checkin_time_local: Type.String({ format: 'date-time' }),
    checkout_time_local: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'LayoverCoverage' },
);
export type LayoverCoverage = Static<typeof LayoverCoverage>;

export const DeadheadCoverage = Type.Object(
  {
    ...coverageRowBase,
    leg_sequence: Nullable(Type.Integer()),
    from_airport: Type.String(),
    to_airport: Type.String(),
    flight_number: Nullable(Type.String()),
    dep_time_local: Type.String({ format: 'date-time' }),
    arr_time_local: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'DeadheadCoverage' },
);
export type DeadheadCoverage = Static<typeof DeadheadCoverage>;

const windowFields = {
  from: Timestamp,
  to: Timestamp,
  counts: {
    ...CoverageCountsByState,
    description: 'Per state, over the window (and station); the status filter does not change them',
  },
  stations: Type.Array(StationCounts, { description: 'Per station and state, by station' }),
  total_results: Type.Integer({ description: 'Rows matching every filter' }),
  next_cursor: Nullable(Type.String()),
};

export const LayoverCoverageList = Type.Object(
  { ...windowFields, layovers: Type.Array(LayoverCoverage) },
  { additionalProperties: false, title: 'LayoverCoverageList' },
);
export type LayoverCoverageList = Static<typeof LayoverCoverageList>;
export const DeadheadCoverageList = Type.Object(
  { ...windowFields, deadheads: Type.Array(DeadheadCoverage) },
  { additionalProperties: false, title: 'DeadheadCoverageList' },
);
export type DeadheadCoverageList = Static<typeof DeadheadCoverageList>;

export const LAYOVER_COVERAGE_CSV_COLUMNS = [
  'employee_id',
  'pairing_number',
  'duty_date',
  'duty_period_num',
  'station',
  'checkin_time_local',
  'checkout_time_local',
  'traveller_email',
  'origin',
  'booking_id',
  'booking_status',
  'status',
  'reason',
] as const;
export const DEADHEAD_COVERAGE_CSV_COLUMNS = [
  'employee_id',
  'pairing_number',
  'duty_date',
  'leg_sequence',
  'from_airport',
  'to_airport',
  'flight_number',
  'dep_time_local',
  'arr_time_local',
  'traveller_email',
  'origin',
  'booking_id',
  'booking_status',
  'status',
  'reason',
] as const;

// ---- the facts of a coverage row, as the db's coverage queries gather them and the engine classifies them

/** The booking facts of a coverage row as its query gathers them (no booking: nulls). */
export interface CoverageRowBooking {
  origin: (typeof COVERAGE_ORIGINS)[number];
  booking_id: string | null;
  booking_status: string | null;
  pending_cancel: boolean | null;
  review_reason: string | null;
}

/** A layover coverage row: the roster's stay (b_*: the booking's own). */
export interface LayoverCoverageFacts extends CoverageRowBooking {
  station: string;
  checkin_time_local: string;
  checkout_time_local: string;
  b_station: string | null;
  b_checkin_time_local: string | null;
  b_checkout_time_local: string | null;
}

/** A DH-leg coverage row: the roster's leg (b_*: the booking's own). */
export interface DeadheadCoverageFacts extends CoverageRowBooking {
  from_airport: string;
  to_airport: string;
  flight_number: string | null;
  dep_time_local: string;
  arr_time_local: string;
  b_from_airport: string | null;
  b_to_airport: string | null;
  b_flight_number: string | null;
  b_dep_time_local: string | null;
  b_arr_time_local: string | null;
}
