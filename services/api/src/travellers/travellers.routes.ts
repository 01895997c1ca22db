import {
  requiredScope,
  TravellerAuditList,
  TravellerAuditQuery,
  TravellerProfile,
  TravellerProfileBody,
  TravellerProfileParams,
} from '@crew/contracts';
import { travellerRepo, type Db } from '@crew/db';
import { ApiError, errorResponses, route, type Logger, type RouteSpec, type TravellerVault } from '@crew/platform';
import { principal } from '../auth/guard';
import { getProfile, profileView, putProfile } from './travellers.service';

const TAGS = ['Traveller profiles'];
const PATH = '/crew/travellers/:employee_id';

/**
 * The airline's own traveller profiles, by employee_id (e-mails stay out of URLs). The personal fields are
 * sealed at rest; the answer shows them to the owning airline only, the document number masked to its last 4.
 */
export function travellerRoutes(
  db: Db,
  vault: TravellerVault,
  logger: Logger,
  now: () => Date = () => new Date(),
): RouteSpec[] {
  return [
    route({
      method: 'put',
      path: PATH,
      operationId: 'putTravellerProfile',
      summary: "Create or update a crew member's traveller profile: an omitted field keeps its value, null clears it",
      description:
        'Names as on the passport (Duffel rules). `traveller_email` is required when the employee has no profile yet; an e-mail of another ' +
        'employee is 409. The date of birth, gender, title, phone number and identity document are encrypted at rest; every change is audited ' +
        '(who, when, which fields; never the values). A flight booking needs `date_of_birth`.',
      tags: TAGS,
      auth: requiredScope('put', PATH),
      params: TravellerProfileParams,
      body: TravellerProfileBody,
      responses: {
        200: { description: 'The updated profile', schema: TravellerProfile },
        201: { description: 'The created profile', schema: TravellerProfile },
        ...errorResponses([401, 403, 409, 422]),
      },
      handler: async ({ res, params, body }) => {
        const p = principal(res);
        const today = now().toISOString().slice(0, 10);
        const saved = await putProfile(
          db,
          vault,
          p.airline_id,
          params.employee_id,
          body,
          p.email || p.client_id,
          today,
        );
        return { status: saved.created ? 201 : 200, body: profileView(saved.row, saved.personal, params.employee_id) };
      },
    }),
    route({
      method: 'get',
      path: PATH,
      operationId: 'getTravellerProfile',
      summary: "A crew member's traveller profile (the identity document's number masked to its last 4)",
      description:
        'The profile of the employee of the calling airline (404 for an unknown employee_id or one of another airline). Personal fields that do not ' +
        'decrypt with the service keys (a row copied from another airline) read as null; the document number shows only its last 4 characters.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      params: TravellerProfileParams,
      responses: { 200: { description: 'The profile', schema: TravellerProfile }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        const airlineId = principal(res).airline_id;
        const found = await getProfile(db, vault, airlineId, params.employee_id);
        // Read as if unset (a flight then asks for the date of birth again); the operator needs to know why.
        if (found.unreadable)
          logger.warn(
            { airline_id: airlineId, employee_id: params.employee_id },
            'traveller personal fields do not open with the key list',
          );
        return { status: 200, body: profileView(found.row, found.personal, params.employee_id) };
      },
    }),
    route({
      method: 'get',
      path: `${PATH}/audit`,
      operationId: 'listTravellerProfileAudit',
      summary:
        "Changes to a crew member's traveller profile, newest first: who, when and which fields (never the values)",
      description:
        'One entry per change: `actor` is the token’s e-mail (else its client id), or `operator` for the operator API; `fields` names what ' +
        'changed, never the values. 404 for an unknown employee_id or one of another airline.',
      tags: TAGS,
      auth: requiredScope('get', `${PATH}/audit`),
      params: TravellerProfileParams,
      query: TravellerAuditQuery,
      responses: {
        200: { description: 'Audit entries', schema: TravellerAuditList },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        const airlineId = principal(res).airline_id;
        if (!(await travellerRepo.findByEmployee(db, airlineId, params.employee_id)))
          throw ApiError.notFound('Traveller profile');
        const rows = await travellerRepo.listAudit(db, airlineId, params.employee_id, query.limit ?? 50);
        return {
          status: 200,
          body: {
            audit: rows.map((r) => ({ at: r.at.toISOString(), actor: r.actor, action: r.action, fields: r.fields })),
          },
        };
      },
    }),
  ];
}
