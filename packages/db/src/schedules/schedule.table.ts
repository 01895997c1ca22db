import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BulkColumns } from '../bulk-types';

type CreatedAt = ColumnType<Date, never, never>;
type Json<T> = ColumnType<T, string, string>;

export type ProcessingStatus = 'QUEUED' | 'PROCESSING' | 'BOOKING' | 'COMPLETED' | 'FAILED' | 'PARTIAL';

export interface ScheduleTable {
  schedule_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  external_ref: string | null;
  as_of: Date | null;
  schedule_start_date: string;
  schedule_end_date: string;
  pairing_count: number;
  status: ProcessingStatus;
  error: string | null;
  received_at: ColumnType<Date, Date | undefined, never>;
  started_at: Date | null;
  completed_at: Date | null;
}
export type ScheduleRow = Selectable<ScheduleTable>;

export interface SchedulePayloadTable {
  schedule_id: string;
  body_gzip: Buffer;
}

export interface RosterStateTable {
  airline_id: string;
  schedule_id: string;
  state_gzip: Buffer;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** SHA-256 (hex) of the stored body (schedule_payloads.body_gzip) of the roster this state is of. */
  body_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set when re-diffing that roster against this state would derive nothing (see rosterStateRepo.windowFingerprints). */
  settled_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  settled_cutoff: ColumnType<string | null, string | null | undefined, string | null>;
  audit_events: ColumnType<number | null, number | null | undefined, number | null>;
  /** What the next diff compares with to diff only the pairings that changed (engine DiffBasis, gzipped JSON); null when the last diff left none. */
  diff_basis_gzip: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

export interface ActionItemTable {
  action_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  schedule_id: string | null;
  item_key: string;
  source: string;
  type: 'HOTEL' | 'FLIGHT';
  subtype: string;
  classification: string;
  priority: string;
  disposition: string | null;
  auto_eligible: boolean;
  anchors: Json<Record<string, unknown>>;
  source_rows: Json<{ day1_row: number | null; day2_row: number | null }>;
  booking_id: string | null;
  flight_options_url: string | null;
  recommended_action: string | null;
  message: string | null;
  notes: string | null;
  irop_ref: string | null;
  event_at: Date | null;
  details: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  disposition_at: Date | null;
  /** The review queue: OPEN, RESOLVED or DISMISSED; null for an item no person ever needed to act on. */
  review_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** The latest time a person's action still helps (engine dueBy); null when no action is needed. */
  due_by: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  action_taken: ColumnType<string | null, string | null | undefined, string | null>;
  action_taken_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The person: a console user's e-mail, or the acting_user an integration names. */
  action_taken_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The reason a person gave with their action (a dismissal's reason). */
  action_reason: ColumnType<string | null, string | null | undefined, string | null>;
  assignee: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the item's due-soon warning went out (it goes out once). */
  due_soon_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The later roster's item that took over this item's booking (its review then ends RESOLVED). */
  superseded_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** A roster cancellation held until then (its disposition null meanwhile); null once the hold ends, or none. */
  held_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The deadline the item is due by instead of the review rules' bounds (a cancellation's hotel deadline), or null. */
  review_deadline: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export type ActionItemRow = Selectable<ActionItemTable>;

/** The review fact columns of action_items (unqualified: for a RETURNING of an update of the table). */
export const REVIEW_FACT_COLUMNS = [
  'action_id',
  'type',
  'subtype',
  'classification',
  'priority',
  'disposition',
  'recommended_action',
  'booking_id',
  'created_at',
  'disposition_at',
  'review_status',
  'due_by',
  'action_taken',
  'action_taken_at',
  'action_taken_by',
  'assignee',
  'event_at',
  'superseded_by',
  'review_deadline',
] as const;

/**
 * The columns of an action item that its answers show (the spec's fields and the review queue's) and the review rules
 * read: what a queue page selects, by name (not `select *`, so that its statement can be prepared). The views take
 * rows of these, so a view reading another column is a type error until it is listed here.
 */
export const ACTION_ITEM_VIEW_COLUMNS = [
  // What the review rules read, as the writers of a disposition read it back.
  ...REVIEW_FACT_COLUMNS,
  // What the answer shows besides.
  'schedule_id',
  'source',
  'auto_eligible',
  'anchors',
  'source_rows',
  'flight_options_url',
  'message',
  'notes',
  'details',
  'action_reason',
  'held_until',
] as const satisfies readonly (keyof ActionItemTable)[];
export type ActionItemViewRow = Pick<ActionItemRow, (typeof ACTION_ITEM_VIEW_COLUMNS)[number]>;

export interface AuditEventTable {
  event_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  schedule_id: string;
  event_key: string;
  classification: string;
  message: string;
  anchors: Json<Record<string, unknown>>;
  source_rows: Json<{ day1_row: number | null; day2_row: number | null }>;
  details: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}
export type AuditEventRow = Selectable<AuditEventTable>;

/* The columns each bulk write (COPY or insert … select) sends, checked against the table's types. */

export const ACTION_ITEM_COLUMNS = {
  action_id: 'uuid',
  airline_id: 'uuid',
  schedule_id: 'uuid',
  item_key: 'text',
  source: 'text',
  type: 'text',
  subtype: 'text',
  classification: 'text',
  priority: 'text',
  disposition: 'text',
  auto_eligible: 'boolean',
  anchors: 'json',
  source_rows: 'json',
  booking_id: 'uuid',
  flight_options_url: 'text',
  recommended_action: 'text',
  message: 'text',
  notes: 'text',
  irop_ref: 'text',
  event_at: 'timestamptz',
  details: 'json',
  disposition_at: 'timestamptz',
  review_status: 'text',
  due_by: 'timestamptz',
  held_until: 'timestamptz',
  review_deadline: 'timestamptz',
} as const satisfies BulkColumns<ActionItemTable>;

export const AUDIT_EVENT_COLUMNS = {
  airline_id: 'uuid',
  schedule_id: 'uuid',
  event_key: 'text',
  classification: 'text',
  message: 'text',
  anchors: 'jsonb',
  source_rows: 'jsonb',
  details: 'jsonb',
} as const satisfies BulkColumns<AuditEventTable>;
