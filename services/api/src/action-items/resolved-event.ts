import { API_PREFIX } from '@crew/contracts';
import { webhookRepo, type ActionItemRow, type DbOrTrx } from '@crew/db';

/** action_item.resolved, in the acting transaction, for the airline's subscribed endpoints: the item as it stands. */
export function resolvedEvent(trx: DbOrTrx, r: ActionItemRow) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return webhookRepo.emitEvents(trx, [
    {
      airline_id: r.airline_id,
      type: 'action_item.resolved',
      data: {
        action_id: r.action_id,
        schedule_id: r.schedule_id,
        type: r.type,
        classification: r.classification,
        priority: r.priority,
        disposition: r.disposition,
        review_status: r.review_status,
        due_by: iso(r.due_by),
        booking_id: r.booking_id,
        action_taken: r.action_taken,
        action_taken_at: iso(r.action_taken_at),
        action_taken_by: r.action_taken_by,
        action_reason: r.action_reason,
        assignee: r.assignee,
      },
      links: {
        action_items: `${API_PREFIX}/crew/action-items?review_status=${r.review_status}`,
        booking: r.booking_id ? `${API_PREFIX}/crew/bookings/${r.booking_id}` : null,
      },
    },
  ]);
}
