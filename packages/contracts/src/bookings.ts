import { Type, type Static } from '@sinclair/typebox';
import { DateString, PageQuery, StringEnum, Timestamp } from './common';
import { ActionSource, ActionType } from './action-items';
import { BookingFlight, BookingHotel, NumNights } from './booking-blocks';

export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'MODIFIED', 'CANCELLED', 'FAILED', 'NEEDS_REVIEW'] as const;
export const BookingStatusValue = StringEnum(BOOKING_STATUSES);
/** The one definition of a booking's status (contracts, db and engine all use it). */
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** What a booking task does at the supplier; stored with the task (bookings.task_operation, the job's `operation`). */
export const BOOKING_OPERATIONS = ['BOOK', 'AMEND', 'CANCEL'] as const;
export type BookingOperation = (typeof BOOKING_OPERATIONS)[number];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const Booking = Type.Object(
  {
    booking_id: Type.String(),
    type: ActionType,
    status: BookingStatusValue,
    source: ActionSource,
    manual_override: Type.Boolean(),
    config_version_used: Nullable(Type.String()),
    retry_count: Type.Integer({ minimum: 0 }),
    hotel: Nullable(BookingHotel),
    flight: Nullable(BookingFlight),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    flight_number: Nullable(
      Type.String({
        description:
          'Anchor, the airline’s: the ROSTERED flight number of the deadhead leg. The flight actually booked (which may differ, say when a person chose another option) is flight.flight_number, with flight.dep_time and flight.arr_time',
      }),
    ),
    irop_ref: Nullable(Type.String()),
    schedule_id: Nullable(Type.String()),
    traveller_email: Nullable(Type.String()),
    duty_date: Nullable(DateString),
    action_id: Nullable(Type.String()),
    booked_by: Nullable(Type.String()),
    review_reason: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    next_attempt_at: Nullable(Timestamp),
    replaces_booking_id: Type.Optional(Type.String({ description: 'On the new booking of a cancel-and-rebook' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Booking' },
);
export type Booking = Static<typeof Booking>;

export const BookingIdParams = Type.Object({ booking_id: Type.String({ format: 'uuid' }) });

export const BOOKING_FILTERS = [
  'schedule_id',
  'employee_id',
  'pairing_number',
  'flight_number',
  'irop_ref',
  'source',
  'type',
  'status',
  'from_date',
  'to_date',
] as const;

const bookingFilters = {
  schedule_id: Type.Optional(Type.String({ format: 'uuid' })),
  employee_id: Type.Optional(Type.String({ maxLength: 32 })),
  pairing_number: Type.Optional(Type.String({ maxLength: 32 })),
  flight_number: Type.Optional(Type.String({ maxLength: 8 })),
  irop_ref: Type.Optional(Type.String({ maxLength: 64 })),
  source: Type.Optional(ActionSource),
  type: Type.Optional(ActionType),
  status: Type.Optional(BookingStatusValue),
  from_date: Type.Optional(DateString),
  to_date: Type.Optional(DateString),
};

export const BookingListQuery = Type.Object({ ...bookingFilters, ...PageQuery }, { additionalProperties: false });
export const BookingList = Type.Object(
  { bookings: Type.Array(Booking), next_cursor: Nullable(Type.String()) },
  { title: 'BookingList' },
);

/** The list filters, at least one (POST /crew/bookings/retry-jobs). */
export const RetryJobBody = Type.Object(bookingFilters, { additionalProperties: false, minProperties: 1 });

export const StatusTransition = Type.Object(
  { status: Type.String(), at: Timestamp, reason: Nullable(Type.String()), actor: Type.String() },
  { title: 'StatusTransition' },
);
export const BookingStatusView = Type.Object(
  {
    booking_id: Type.String(),
    current_status: BookingStatusValue,
    history: Type.Array(StatusTransition),
    booking: Booking,
  },
  { title: 'BookingStatus' },
);

export const PatchBookingBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    manual_override: Type.Optional(Type.Boolean()),
    hotel: Type.Optional(
      Type.Object(
        {
          check_in_date: Type.Optional(DateString),
          check_out_date: Type.Optional(DateString),
          num_nights: Type.Optional(NumNights),
          property_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
    flight: Type.Optional(
      Type.Object(
        {
          flight_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          desired_arrival_by: Type.Optional(Timestamp),
        },
        {
          additionalProperties: false,
          description: 'flight_option_id OR desired_arrival_by; an empty block means full auto-booking',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchBookingBody = Static<typeof PatchBookingBody>;

export const DeleteBookingQuery = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);

/** DELETE's optional JSON body: the same reason as the query parameter, which wins when both give one. */
export const DeleteBookingBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
export type DeleteBookingBody = Static<typeof DeleteBookingBody>;

export const RetryQueueEntry = Type.Object(
  {
    booking_id: Type.String(),
    type: ActionType,
    status: BookingStatusValue,
    retry_count: Type.Integer(),
    next_attempt_at: Timestamp,
    last_error: Nullable(Type.String()),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    schedule_id: Nullable(Type.String()),
  },
  { title: 'RetryQueueEntry' },
);
export const RetryQueue = Type.Object(
  { retry_queue: Type.Array(RetryQueueEntry), next_cursor: Nullable(Type.String()) },
  { title: 'RetryQueue' },
);

export const RetryJob = Type.Object(
  {
    retry_job_id: Type.String(),
    status: StringEnum(['RUNNING', 'COMPLETED', 'FAILED'] as const),
    total: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'RetryJob' },
);
export const RetryJobList = Type.Object({ retry_jobs: Type.Array(RetryJob), next_cursor: Nullable(Type.String()) });
export const RetryJobParams = Type.Object({ retry_job_id: Type.String({ format: 'uuid' }) });
export const PageOnlyQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
