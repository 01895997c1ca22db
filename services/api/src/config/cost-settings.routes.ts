import { CostSettings, CostSettingsBody, requiredScope } from '@crew/contracts';
import type { Db } from '@crew/db';
import { errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { costSettingsView, loadCostSettings, updateCostSettings } from './cost-settings.service';

const TAGS = ['Configuration'];
const PATH = '/crew/config/cost';

/** GET / PUT /crew/config/cost: how hotel cancellations are damped and what happens after a hotel's deadline. */
export function costSettingsRoutes(db: Db): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: PATH,
      operationId: 'getCostSettings',
      summary: 'Cost settings: the hold on roster cancellations and what happens after a hotel’s cancellation deadline',
      description:
        'cancel_hold_minutes (default 0: no hold) holds a cancellation caused by a roster change in case the next roster brings the layover back; after_deadline (default CANCEL) says whether a roster cancellation after the hotel’s deadline cancels anyway and records the fee, or goes to a person (REVIEW).',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      responses: {
        200: { description: 'Cost settings (the defaults until changed)', schema: CostSettings },
        ...errorResponses([401, 403]),
      },
      handler: async ({ res }) => ({
        status: 200,
        body: costSettingsView(await loadCostSettings(db, principal(res).airline_id)),
      }),
    }),
    route({
      method: 'put',
      path: PATH,
      operationId: 'putCostSettings',
      summary: 'Change cost settings; an omitted field keeps its value',
      description:
        'Any subset of cancel_hold_minutes (an integer, 0 to 1440) and after_deadline (CANCEL or REVIEW); a fault is 422 naming the field and changes nothing.',
      tags: TAGS,
      auth: requiredScope('put', PATH),
      body: CostSettingsBody,
      responses: {
        200: { description: 'Cost settings', schema: CostSettings },
        ...errorResponses([401, 403, 422]),
      },
      handler: async ({ res, body }) => ({
        status: 200,
        body: costSettingsView(await updateCostSettings(db, principal(res).airline_id, body)),
      }),
    }),
  ];
}
