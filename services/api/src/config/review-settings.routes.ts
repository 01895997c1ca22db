import { requiredScope, ReviewSettings, ReviewSettingsBody } from '@crew/contracts';
import type { Db } from '@crew/db';
import { errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { loadReviewSettings, reviewSettingsView, updateReviewSettings } from './review-settings.service';

const TAGS = ['Configuration'];
const PATH = '/crew/config/review';

/** GET / PUT /crew/config/review: what the review queue's due_by and due-soon warning are computed with. */
export function reviewSettingsRoutes(db: Db): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: PATH,
      operationId: 'getReviewSettings',
      summary: 'Review settings: lead time before the event, the due-soon warning, the review targets by priority',
      description:
        'What an action item’s due_by and the action_item.due_soon warning are computed with: the earlier of the event less lead_time_minutes and the creation plus the priority’s target (a roster cancellation left for a person stays due at the hotel’s cancellation deadline). The defaults until the airline changes them.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      responses: {
        200: { description: 'Review settings (the defaults until changed)', schema: ReviewSettings },
        ...errorResponses([401, 403]),
      },
      handler: async ({ res }) => ({
        status: 200,
        body: reviewSettingsView(await loadReviewSettings(db, principal(res).airline_id)),
      }),
    }),
    route({
      method: 'put',
      path: PATH,
      operationId: 'putReviewSettings',
      summary: 'Change review settings; an omitted field (or priority target) keeps its value',
      description:
        'Any subset of lead_time_minutes, due_soon_minutes and priority_targets_minutes (keyed P1, P2, P3; merged per priority). Minutes are integers, 0 or more; a fault is 422 naming the field and changes nothing.',
      tags: TAGS,
      auth: requiredScope('put', PATH),
      body: ReviewSettingsBody,
      responses: {
        200: { description: 'Review settings', schema: ReviewSettings },
        ...errorResponses([401, 403, 422]),
      },
      handler: async ({ res, body }) => ({
        status: 200,
        body: reviewSettingsView(await updateReviewSettings(db, principal(res).airline_id, body)),
      }),
    }),
  ];
}
