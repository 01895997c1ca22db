import { Type } from '@sinclair/typebox';
import { DateString, PageQuery, Priority } from './common';
import { ActionItem, ActionSubtype, ActionType, AuditEvent, Disposition } from './action-items';
import { ProcessingStatusValue, ScheduleDetail } from './schedules';

export const ScheduleIdParams = Type.Object({ schedule_id: Type.String({ format: 'uuid' }) });

export const ScheduleListQuery = Type.Object(
  {
    from: Type.Optional(DateString),
    to: Type.Optional(DateString),
    status: Type.Optional(ProcessingStatusValue),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const ScheduleList = Type.Object(
  {
    schedules: Type.Array(ScheduleDetail),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    total_results: Type.Integer({ minimum: 0 }),
  },
  { title: 'ScheduleList' },
);

export const ActionItemListQuery = Type.Object(
  {
    type: Type.Optional(ActionType),
    subtype: Type.Optional(ActionSubtype),
    priority: Type.Optional(Priority),
    disposition: Type.Optional(Disposition),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const ActionItemList = Type.Object(
  { action_items: Type.Array(ActionItem), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  { title: 'ActionItemList' },
);

export const AuditEventListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const AuditEventList = Type.Object(
  { audit_events: Type.Array(AuditEvent), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  { title: 'AuditEventList' },
);

/** actions.csv columns (DESIGN section 6): the action item fields of spec 2.3 in order, anchors and source_rows flattened. */
export const ACTION_CSV_COLUMNS = [
  'action_id',
  'schedule_id',
  'source',
  'type',
  'subtype',
  'classification',
  'priority',
  'disposition',
  'auto_eligible',
  'anchors.employee_id',
  'anchors.pairing_number',
  'anchors.duty_date',
  'anchors.traveller_email',
  'source_rows.day1_row',
  'source_rows.day2_row',
  'booking_id',
  'flight_options_url',
  'recommended_action',
  'created_at',
] as const;
