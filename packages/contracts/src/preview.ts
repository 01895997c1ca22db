import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateString, Money, Priority, StringEnum, Timestamp } from './common';
import { ActionAnchors, ActionItemDetails, ActionSubtype, ActionType, Disposition, SourceRows } from './action-items';
import { AuditClassification, ClassificationValue } from './classifications';

/** The dry-run preview of a roster (not in the spec): POST /crew/schedules/preview. */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A preview answers synchronously up to this many pairings; a bigger roster is refused (422), see docs/decisions.md. */
export const PREVIEW_MAX_PAIRINGS = 2000;

export const PREVIEW_OUTCOMES = ['AUTO_BOOK', 'AUTO_MODIFY', 'AUTO_CANCEL', 'REVIEW', 'NO_ACTION', 'ADOPT'] as const;
export const PreviewOutcome = StringEnum(PREVIEW_OUTCOMES, {
  description:
    'What the booking policy would do. AUTO_BOOK / AUTO_MODIFY / AUTO_CANCEL: a booking task would run against the supplier. REVIEW: a person must act (`reason`). NO_ACTION: UNCHANGED, nothing to do. ADOPT: the airline’s own live booking already covers it (no second booking).',
});

export const PreviewActionItem = Type.Object(
  {
    item_key: Type.String({
      description: 'Stable per classification and roster row: the real submission’s item has the same key',
    }),
    type: ActionType,
    subtype: ActionSubtype,
    classification: ClassificationValue,
    priority: Priority,
    anchors: ActionAnchors,
    source_rows: SourceRows,
    booking_id: Nullable(
      Type.String({ description: 'The existing booking a MODIFY / CANCEL / UNCHANGED item (or an adoption) concerns' }),
    ),
    event_at: Timestamp,
    outcome: PreviewOutcome,
    auto_eligible: Type.Boolean(),
    disposition: Nullable({
      ...Disposition,
      description: 'The disposition the item would have once diffed; null: its booking task would set it',
    }),
    reason: Nullable(
      Type.String({ description: 'Why the item would go to review (or be adopted), in the spec’s words' }),
    ),
    recommended_action: Nullable(Type.String()),
    hotel: Nullable(
      Type.Object(
        {
          property_id: Type.String(),
          name: Nullable(Type.String()),
          contract_id: Type.Integer(),
          contracted_rate: Money,
        },
        {
          additionalProperties: false,
          title: 'PreviewHotelChoice',
          description: 'AUTO_BOOK / AUTO_MODIFY hotel items: the contracted hotel and rate the task would book',
        },
      ),
    ),
    message: Type.String({ description: 'The message the action item would carry' }),
    details: ActionItemDetails,
  },
  { additionalProperties: false, title: 'PreviewActionItem' },
);
export type PreviewActionItem = Static<typeof PreviewActionItem>;

export const PreviewAuditEvent = Type.Object(
  { classification: AuditClassification, message: Type.String(), anchors: ActionAnchors, source_rows: SourceRows },
  { additionalProperties: false, title: 'PreviewAuditEvent' },
);

export const SchedulePreview = Type.Object(
  {
    external_ref: Nullable(Type.String()),
    schedule_start_date: DateString,
    schedule_end_date: DateString,
    previewed_at: {
      ...Timestamp,
      description:
        'The clock of the preview (priorities, cancellation lookback): a real submission processed later may differ by it',
    },
    counts: Type.Object(
      {
        action_items: Type.Integer(),
        by_classification: Type.Record(Type.String(), Type.Integer(), {
          description: 'Action items per classification',
        }),
        by_outcome: Type.Record(Type.String(), Type.Integer(), {
          description: 'Action items per outcome (PreviewOutcome)',
        }),
        by_disposition: Type.Record(Type.String(), Type.Integer(), {
          description: 'Action items per disposition they would have once diffed; OPEN: a booking task would decide',
        }),
        audit_events: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    action_items: Type.Array(PreviewActionItem, {
      description: 'In the order of the real submission’s items (pairing, employee, duty date, type, key)',
    }),
    audit_events: Type.Array(PreviewAuditEvent, {
      description: 'Rows the diff would skip (DATA_QUALITY_FLAG) or collapse (DUPLICATE_ROW)',
    }),
  },
  { additionalProperties: false, title: 'SchedulePreview' },
);
export type SchedulePreview = Static<typeof SchedulePreview>;
