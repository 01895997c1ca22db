import {
  ActionItem,
  ActionItemIdParams,
  ActionItemList,
  ActionItemQueueQuery,
  IDEMPOTENCY_HEADER,
  requiredScope,
  ReviewActionBody,
} from '@crew/contracts';
import { bindLog, errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { actOnActionItem } from './act.service';
import type { OperationDeps } from './operations';
import { getActionItem, listActionItemQueue } from './queue.service';

const TAGS = ['Action items'];
const PATH = '/crew/action-items';

/** The review queue over the API: one list of the airline's action items, one place to act on one. */
export function actionItemRoutes(deps: OperationDeps): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: PATH,
      operationId: 'listActionItemQueue',
      summary: 'Every action item of the airline (injected ones included): the review queue',
      description:
        'Filters as the per-schedule list, plus review_status (OPEN: what still waits for a person), schedule_id, station, due_before and assignee. Sorted by due_by (soonest first) by default with disposition=PENDING_REVIEW or review_status=OPEN, else by created_at (the order the items were created in); keyset-paginated.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      query: ActionItemQueueQuery,
      responses: {
        200: { description: 'Action items', schema: ActionItemList },
        ...errorResponses([400, 401, 403]),
      },
      handler: async ({ res, query }) => ({
        status: 200,
        body: await listActionItemQueue(deps, principal(res).airline_id, query),
      }),
    }),
    route({
      method: 'get',
      path: `${PATH}/:action_id`,
      operationId: 'getActionItem',
      summary: 'One action item of the airline (injected or from a roster), with its review fields',
      description:
        'The item as the queue shows it: the spec’s fields and review_status, due_by, available_actions, action_taken, action_taken_at, action_taken_by and assignee. 404 for an unknown item or another airline’s.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      params: ActionItemIdParams,
      responses: {
        200: { description: 'The action item', schema: ActionItem },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params }) => ({
        status: 200,
        body: await getActionItem(deps, principal(res).airline_id, params.action_id),
      }),
    }),
    route({
      method: 'post',
      path: `${PATH}/:action_id/actions`,
      operationId: 'actOnActionItem',
      summary: 'A person’s action on an action item (one of its available_actions)',
      description:
        'Runs through the same engine as POST /crew/bookings/request, PATCH and DELETE (manual_override is set as they set it), on the item’s own booking: its booking_id stays. 409 CONFLICT when the action is not (or no longer) available, as for the second of two people acting on one item; 422 when an input it needs is missing. acting_user defaults to the caller’s e-mail. Emits action_item.resolved (not for ASSIGN).',
      tags: TAGS,
      auth: requiredScope('post', PATH),
      headers: IDEMPOTENCY_HEADER,
      params: ActionItemIdParams,
      body: ReviewActionBody,
      responses: {
        202: { description: 'The action item after the action', schema: ActionItem },
        ...errorResponses([400, 401, 403, 404, 409, 422]),
      },
      handler: async ({ req, res, params, body }) => {
        bindLog(res, { action_id: params.action_id });
        return actOnActionItem(deps, principal(res), params.action_id, body, req.get('Idempotency-Key'));
      },
    }),
  ];
}
