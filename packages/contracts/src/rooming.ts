import { Type, type Static } from '@sinclair/typebox';
import { PageQuery, StringEnum } from './common';
import type { Disposition } from './action-items';

/*
 * Rooming lists of DIRECT hotels: every version of a night's list sent to a hotel, with its
 * rows and the hotel's answers. Read by the airline, resent by the operator.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const at = (description: string) => Nullable(Type.String({ format: 'date-time', description }));

export const RoomingMarking = StringEnum(['NEW', 'AMENDED', 'CANCELLED'] as const, {
  description: 'What the row tells the hotel',
});
export const RoomingRowState = StringEnum(
  ['QUEUED', 'SENT', 'CONFIRMED', 'REJECTED', 'EXPIRED', 'SUPERSEDED', 'WITHDRAWN'] as const,
  {
    description:
      'QUEUED: not sent yet; SENT: awaiting the hotel; SUPERSEDED: a later row of the same stay replaced it; WITHDRAWN: dropped before it was sent',
  },
);
export const RoomingListStatus = StringEnum(['QUEUED', 'SENT', 'ANSWERED', 'EXPIRED'] as const, {
  description:
    'QUEUED: waiting for its send time or for the mail server; SENT: awaiting the hotel; EXPIRED: no answer by the deadline',
});

export const RoomingListRow = Type.Object(
  {
    row_ref: Type.String({ description: 'The stay’s reference at the hotel, the same in every version and resend' }),
    booking_id: Type.String({ format: 'uuid' }),
    marking: RoomingMarking,
    state: RoomingRowState,
    crew_name: Nullable(Type.String()),
    rank: Nullable(Type.String()),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    checkin_time_local: Type.String({ format: 'date-time' }),
    checkout_time_local: Type.String({ format: 'date-time' }),
    hotel_confirmation_number: Nullable(Type.String()),
    reject_reason: Nullable(Type.String()),
    answered_at: at('When the hotel answered this row'),
  },
  { title: 'RoomingListRow' },
);

export const RoomingList = Type.Object(
  {
    list_id: Type.String({ format: 'uuid' }),
    hotel_config_id: Type.Integer(),
    night: Type.String({ format: 'date', description: 'The night (check-in date) the list is for' }),
    version: Type.Integer({
      minimum: 1,
      description: 'Version of that night’s list; each change after a list was sent makes a new one',
    }),
    status: RoomingListStatus,
    recipient: Type.String({ description: 'The hotel’s reservations_email when the list was made' }),
    due_at: Type.String({ format: 'date-time', description: 'When the list is (or was) due to leave' }),
    sends: Type.Integer({ description: 'How many times it was e-mailed (resends included)' }),
    send_attempts: Type.Integer({ description: 'Delivery attempts, failed ones included' }),
    last_error: Nullable(Type.String({ description: 'Why the last delivery attempt failed' })),
    sent_at: at('First sent'),
    opened_at: at('The hotel first opened the confirmation page'),
    answered_at: at('The hotel answered'),
    expires_at: at('Deadline of the hotel’s answer (and of the link)'),
    rows: Type.Array(RoomingListRow),
  },
  { title: 'RoomingList' },
);
export type RoomingList = Static<typeof RoomingList>;

export const RoomingListPage = Type.Object(
  { rooming_lists: Type.Array(RoomingList), next_cursor: Nullable(Type.String()) },
  { title: 'RoomingListPage' },
);
export const RoomingListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const RoomingListParams = Type.Object({ list_id: Type.String({ format: 'uuid' }) });

/** Everything an answer (or its deadline) does to a stay's row, its booking and its action item. */
export interface RowSettlement {
  /** The row's state. */
  state: 'CONFIRMED' | 'REJECTED' | 'EXPIRED';
  /** The hotel answered (an expiry is no answer). */
  answered: boolean;
  confirmation_number: string | null;
  reject_reason: string | null;
  /** The booking's status and the reason recorded with it. */
  status: 'CONFIRMED' | 'MODIFIED' | 'CANCELLED' | 'NEEDS_REVIEW';
  reason: string | null;
  /** The action item's disposition (that of a booking task ending so). */
  disposition: Disposition;
}
