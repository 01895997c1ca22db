import {
  API_PREFIX,
  type ActionItem,
  type AuditEvent,
  type ScheduleDetail,
  type ScheduleSummary,
} from '@crew/contracts';
import type { ActionItemViewRow, AuditEventRow, ScheduleCounts, ScheduleRow } from '@crew/db';
import { processingReport } from '@crew/engine';

export function scheduleLinks(scheduleId: string) {
  return {
    status: `${API_PREFIX}/crew/schedules/${scheduleId}/processing-status`,
    action_items: `${API_PREFIX}/crew/schedules/${scheduleId}/action-items`,
  };
}

export function summaryOf(c: ScheduleCounts): ScheduleSummary {
  return {
    action_items_total: c.total,
    action_items_auto_booked: c.auto_booked,
    action_items_auto_cancelled: c.auto_cancelled,
    action_items_pending_review: c.pending_review,
    action_items_failed: c.failed,
    action_items_resolved_by_person: c.resolved_by_person,
    audit_events: c.audit_events,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function scheduleDetail(s: ScheduleRow, c: ScheduleCounts): ScheduleDetail {
  return {
    schedule_id: s.schedule_id,
    external_ref: s.external_ref,
    processing_status: progressOf(s, c).status,
    received_at: s.received_at.toISOString(),
    links: scheduleLinks(s.schedule_id),
    started_at: iso(s.started_at),
    completed_at: iso(s.completed_at),
    summary: summaryOf(c),
  };
}

/** What processing-status reports (engine processingReport: spec 3.1 status, poll_recommended, flight_tasks_pending). */
export function progressOf(s: ScheduleRow, c: ScheduleCounts) {
  return processingReport({ status: s.status, open: c.open, open_flight: c.open_flight });
}

/** The review queue's fields of an action item: decided with its booking (action-items/views.ts). */
export type ReviewFieldName =
  | 'review_status'
  | 'due_by'
  | 'available_actions'
  | 'action_taken'
  | 'action_taken_at'
  | 'action_taken_by'
  | 'action_reason'
  | 'assignee'
  | 'held_until';

/** The action item's own fields (spec 2.3 and its "not shown" extras); actions.csv shows these. */
export function actionItemView(r: ActionItemViewRow): Omit<ActionItem, ReviewFieldName> {
  return {
    action_id: r.action_id,
    schedule_id: r.schedule_id,
    source: r.source as ActionItem['source'],
    type: r.type,
    subtype: r.subtype as ActionItem['subtype'],
    classification: r.classification,
    priority: r.priority as ActionItem['priority'],
    disposition: r.disposition as ActionItem['disposition'],
    auto_eligible: r.auto_eligible,
    anchors: r.anchors as ActionItem['anchors'],
    source_rows: r.source_rows,
    booking_id: r.booking_id,
    flight_options_url: r.flight_options_url,
    recommended_action: r.recommended_action,
    created_at: r.created_at.toISOString(),
    notes: r.notes,
    message: r.message,
    // Written by the engine (diff) or the injection in the ActionItemDetails layout.
    details: r.details,
  };
}

export function auditEventView(r: AuditEventRow): AuditEvent {
  return {
    event_id: r.event_id,
    schedule_id: r.schedule_id,
    classification: r.classification,
    message: r.message,
    anchors: r.anchors as AuditEvent['anchors'],
    source_rows: r.source_rows,
    // Written by the engine's flattener in this layout.
    details: r.details as AuditEvent['details'],
    created_at: r.created_at.toISOString(),
  };
}
