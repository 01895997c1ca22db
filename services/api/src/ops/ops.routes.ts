import { Type } from '@sinclair/typebox';
import {
  ChangeRequest,
  ChangeRequestParams,
  OpsChangeRequest,
  DecideBody,
  OpsChangeRequestQuery,
  AirlineIdParams,
  AirlineSettings,
  AirlineSettingsPatch,
  AirlineView,
  CreateAirlineBody,
  CreatedUser,
  CreateUserBody,
  TravellerBody,
  TravellerParams,
  TravellerView,
} from '@crew/contracts';
import { configRepo, settingsOf, tenancyRepo, type Airline, type Db, type Traveller } from '@crew/db';
import { opsUpsert } from '../travellers/travellers.service';
import { changeRequestView } from '../config/contracts.routes';
import {
  ApiError,
  hashSecret,
  newSecret,
  route,
  type PersonalData,
  type RouteSpec,
  type TravellerVault,
  errorResponses,
} from '@crew/platform';

const TAGS = ['Operator API'];
const errors = errorResponses;

export function airlineView(a: Airline) {
  return {
    airline_id: a.airline_id,
    name: a.name,
    carrier_code: a.carrier_code,
    settings: settingsOf(a),
    created_at: a.created_at.toISOString(),
  };
}

/** The operator's view: the date of birth opened from the sealed fields (the other personal fields stay with the airline's API). */
export function travellerView(t: Traveller, personal: PersonalData) {
  return {
    traveller_email: t.traveller_email,
    employee_id: t.employee_id,
    first_name: t.first_name,
    last_name: t.last_name,
    name: t.name,
    date_of_birth: personal.date_of_birth ?? null,
    // Only when set: the answer of a profile without one is as it always was.
    ...(personal.phone_number ? { phone_number: personal.phone_number } : {}),
    updated_at: t.updated_at.toISOString(),
  };
}

async function airlineOr404(db: Db, airlineId: string): Promise<Airline> {
  const airline = await tenancyRepo.findAirline(db, airlineId);
  if (!airline) throw ApiError.notFound('Airline');
  return airline;
}

/** The operator API of DESIGN section 3 (fixed paths), behind the operator token. */
export function opsRoutes(db: Db, vault: TravellerVault): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/airlines',
      operationId: 'opsCreateAirline',
      summary: 'Create an airline (tenant) with default settings',
      tags: TAGS,
      auth: 'ops',
      body: CreateAirlineBody,
      responses: { 201: { description: 'The airline', schema: AirlineView }, ...errors([401, 422]) },
      handler: async ({ body }) => ({
        status: 201,
        body: airlineView(await tenancyRepo.createAirline(db, body.name, body.carrier_code)),
      }),
    }),
    route({
      method: 'get',
      path: '/airlines',
      operationId: 'opsListAirlines',
      summary: 'List airlines',
      tags: TAGS,
      auth: 'ops',
      responses: {
        200: { description: 'Airlines', schema: Type.Object({ airlines: Type.Array(AirlineView) }) },
        ...errors([401]),
      },
      handler: async () => ({ status: 200, body: { airlines: (await tenancyRepo.listAirlines(db)).map(airlineView) } }),
    }),
    route({
      method: 'get',
      path: '/airlines/:airline_id/settings',
      operationId: 'opsGetSettings',
      summary: "An airline's operator levers",
      tags: TAGS,
      auth: 'ops',
      params: AirlineIdParams,
      responses: { 200: { description: 'Settings', schema: AirlineSettings }, ...errors([401, 404]) },
      handler: async ({ params }) => ({ status: 200, body: settingsOf(await airlineOr404(db, params.airline_id)) }),
    }),
    route({
      method: 'patch',
      path: '/airlines/:airline_id/settings',
      operationId: 'opsPatchSettings',
      summary: 'Change any subset of the operator levers',
      tags: TAGS,
      auth: 'ops',
      params: AirlineIdParams,
      body: AirlineSettingsPatch,
      responses: { 200: { description: 'Settings', schema: AirlineSettings }, ...errors([401, 404, 422]) },
      handler: async ({ params, body }) => {
        const updated = await tenancyRepo.updateAirlineSettings(db, params.airline_id, body);
        if (!updated) throw ApiError.notFound('Airline');
        return { status: 200, body: settingsOf(updated) };
      },
    }),
    route({
      method: 'post',
      path: '/airlines/:airline_id/users',
      operationId: 'opsCreateUser',
      summary: 'Create a user of an airline; the user_token is shown once',
      tags: TAGS,
      auth: 'ops',
      params: AirlineIdParams,
      body: CreateUserBody,
      responses: {
        201: { description: 'The user and its token', schema: CreatedUser },
        ...errors([401, 404, 409, 422]),
      },
      handler: async ({ params, body }) => {
        await airlineOr404(db, params.airline_id);
        const token = newSecret(32);
        const user = await tenancyRepo.createUser(db, params.airline_id, body.email, hashSecret(token));
        if (!user) throw ApiError.conflict(`A user with email ${body.email} already exists for this airline`);
        return { status: 201, body: { user_id: user.user_id, email: user.email, user_token: token } };
      },
    }),
    route({
      method: 'put',
      path: '/airlines/:airline_id/travellers/:traveller_email',
      operationId: 'opsUpsertTraveller',
      summary:
        "Create or update a crew member's traveller profile (the airline sets the same with PUT /api/v1/crew/travellers/{employee_id})",
      tags: TAGS,
      auth: 'ops',
      params: TravellerParams,
      body: TravellerBody,
      responses: { 200: { description: 'The traveller profile', schema: TravellerView }, ...errors([401, 404, 422]) },
      handler: async ({ params, body }) => {
        await airlineOr404(db, params.airline_id);
        const saved = await opsUpsert(db, vault, params.airline_id, params.traveller_email, body);
        return { status: 200, body: travellerView(saved.row, saved.personal) };
      },
    }),
  ];
}

/** Hotel change requests of every airline, and the operator's decision (the only switch of automated booking). */
export function opsChangeRequestRoutes(db: Db): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/change-requests',
      operationId: 'opsListChangeRequests',
      summary: 'Hotel change requests of all airlines, newest first, each naming its airline',
      tags: TAGS,
      auth: 'ops',
      query: OpsChangeRequestQuery,
      responses: {
        200: { description: 'Change requests', schema: Type.Object({ change_requests: Type.Array(OpsChangeRequest) }) },
        ...errors([400, 401]),
      },
      handler: async ({ query }) => ({
        status: 200,
        body: {
          change_requests: (await configRepo.listChangeRequestsOfAirlines(db, { status: query.status })).map((r) => ({
            ...changeRequestView(r),
            airline_id: r.airline_id,
            airline_name: r.airline_name,
          })),
        },
      }),
    }),
    route({
      method: 'post',
      path: '/change-requests/:request_id/decide',
      operationId: 'opsDecideChangeRequest',
      summary: 'APPROVED+ENABLE switches automated booking on for the contract; APPROVED+DISABLE switches it off',
      tags: TAGS,
      auth: 'ops',
      params: ChangeRequestParams,
      body: DecideBody,
      responses: {
        200: { description: 'The decided request', schema: ChangeRequest },
        ...errors([401, 404, 409, 422]),
      },
      handler: async ({ params, body }) => {
        const decided = await db.transaction().execute(async (trx) => {
          if (!(await configRepo.findChangeRequest(trx, params.request_id))) throw ApiError.notFound('Change request');
          const row = await configRepo.closeChangeRequest(trx, params.request_id, body.decision, {
            decided_by: body.decided_by,
            decision_note: body.note ?? null,
          });
          if (!row) throw ApiError.conflict('Only an OPEN change request can be decided');
          if (row.status === 'APPROVED' && (row.intent === 'ENABLE' || row.intent === 'DISABLE')) {
            await configRepo.setContractAutomation(trx, row.contract_id, row.intent === 'ENABLE');
          }
          return row;
        });
        return { status: 200, body: changeRequestView(decided) };
      },
    }),
  ];
}
