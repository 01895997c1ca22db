import type { ActionItem, ActionItemQueueQuery } from '@crew/contracts';
import { reviewRepo, scheduleRepo, type Db, type QueueSort } from '@crew/db';
import { ApiError, decodeCursor, encodeCursor, isTimestamptzPosition, isUuidPosition } from '@crew/platform';
import { actionItemViews, actionItemViewsWith, reviewFactsFrom } from './views';

/**
 * The sort of the queue: by deadline when the caller asks for what waits for a person (disposition
 * PENDING_REVIEW or review_status OPEN), else by creation; `sort` chooses either.
 */
export function queueSortOf(q: Pick<ActionItemQueueQuery, 'sort' | 'disposition' | 'review_status'>): QueueSort {
  if (q.sort) return q.sort;
  return q.disposition === 'PENDING_REVIEW' || q.review_status === 'OPEN' ? 'due_by' : 'created_at';
}

interface QueueCursor extends Record<string, unknown> {
  /** The sort the cursor was made for: a cursor of one order is no position in another. */
  o: QueueSort;
  /** The position: due_by as Postgres prints it (null: past the items with one), or the creation sequence. */
  k: string | null;
  i: string;
}

const SEQ = /^\d{1,18}$/;

/**
 * Whether a decoded cursor is a position in this sort: a creation-order key is a sequence number (a bigint), a
 * deadline key a timestamptz as Postgres prints it or null; the id a uuid (both are parameters of the query).
 */
const positionIn = (sort: QueueSort) => (v: Record<string, unknown>) =>
  v.o === sort &&
  isUuidPosition(v.i) &&
  (sort === 'created_at' ? typeof v.k === 'string' && SEQ.test(v.k) : v.k === null || isTimestamptzPosition(v.k));

/**
 * GET /crew/action-items (and the console's queue): every action item of the airline, injected ones
 * included, filtered, in one order, keyset-paginated `{action_items, next_cursor}` (stable under inserts).
 */
export async function listActionItemQueue(
  deps: { db: Db },
  airlineId: string,
  query: ActionItemQueueQuery,
): Promise<{ action_items: ActionItem[]; next_cursor: string | null }> {
  const sort = queueSortOf(query);
  const limit = query.limit ?? 50;
  const cursor = decodeCursor<QueueCursor>(query.cursor, positionIn(sort));
  const filter = {
    type: query.type,
    subtype: query.subtype,
    priority: query.priority,
    disposition: query.disposition,
    review_status: query.review_status,
    schedule_id: query.schedule_id,
    station: query.station,
    due_before: query.due_before,
    assignee: query.assignee,
  };
  const rows = await reviewRepo.listQueue(
    deps.db,
    airlineId,
    filter,
    sort,
    limit,
    cursor ? { key: cursor.k, id: cursor.i } : null,
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  // The page's rows carry what the review rules read: no second statement.
  const facts = reviewFactsFrom({
    max_retries: page[0]?.max_retries ?? null,
    settings: page[0]?.review_settings ?? null,
    bookings: page.flatMap((r) => (r.booking_facts ? [r.booking_facts] : [])),
  });
  return {
    action_items: actionItemViewsWith(page, facts),
    next_cursor: more && last ? encodeCursor({ o: sort, k: last.keyset_key, i: last.action_id }) : null,
  };
}

/** GET /crew/action-items/{action_id}: one item of the airline as the queue shows it; 404 for another airline's. */
export async function getActionItem(deps: { db: Db }, airlineId: string, actionId: string): Promise<ActionItem> {
  const row = await scheduleRepo.findActionItem(deps.db, airlineId, actionId);
  if (!row) throw ApiError.notFound('Action item');
  const [view] = await actionItemViews(deps.db, airlineId, [row]);
  return view!;
}
