import { Type } from '@sinclair/typebox';
import {
  ChangeRequest,
  ChangeRequestBody,
  ChangeRequestListQuery,
  ChangeRequestParams,
  Contract,
  ContractBody,
  ContractParams,
  ContractPatchBody,
  ContractRatesBody,
  HotelConfigIdParams,
  requiredScope,
} from '@crew/contracts';
import { configRepo, type Db, type HotelChangeRequestRow, type HotelContractRow } from '@crew/db';
import { contractDateIssues, contractRateIssues } from '@crew/engine';
import { ApiError, errorResponses, route, type Logger, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { contractCostFields } from './contract-terms';
import { shortenHeldCancellations, type HeldCancellationDeps } from './held-cancellations';
import type { PropertyTimeZone } from './hotels.service';

const TAGS = ['Hotel contracts'];

export function contractView(c: HotelContractRow) {
  return {
    contract_id: c.contract_id,
    hotel_config_id: c.hotel_config_id,
    contract_number: c.contract_number,
    contract_from: c.contract_from,
    contract_to: c.contract_to,
    automated_booking_enabled: c.automated_booking_enabled,
    rate_periods: c.rate_periods,
    // Additive: only a contract given a code shows one, so existing clients see the fixed shape unchanged.
    ...(c.rate_access_code ? { rate_access_code: c.rate_access_code } : {}),
    // Additive, shown when set (a contract without them keeps the fixed shape): the cancellation terms, a missing
    // fee as null; the zone the deadline is read in; incidentals the airline pays at this hotel.
    ...(c.cancellation_terms
      ? {
          cancellation_deadline: c.cancellation_terms.cancellation_deadline,
          late_cancellation_fee: c.cancellation_terms.late_cancellation_fee ?? null,
          no_show_fee: c.cancellation_terms.no_show_fee ?? null,
        }
      : {}),
    ...(c.hotel_time_zone ? { hotel_time_zone: c.hotel_time_zone } : {}),
    ...(c.incidentals_covered ? { incidentals_covered: true } : {}),
  };
}

export function changeRequestView(r: HotelChangeRequestRow) {
  return {
    request_id: r.request_id,
    hotel_config_id: r.hotel_config_id,
    contract_id: r.contract_id,
    intent: r.intent,
    status: r.status,
    hotel_name: r.hotel_name,
    station: r.station,
    contract_number: r.contract_number,
    contract_from: r.contract_from,
    contract_to: r.contract_to,
    requested_by: r.requested_by,
    requested_on: r.requested_on.toISOString(),
    decided_by: r.decided_by,
    decided_on: r.decided_on ? r.decided_on.toISOString() : null,
    decision_note: r.decision_note,
  };
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

export function contractRoutes(
  db: Db,
  logger: Logger,
  zoneOf: PropertyTimeZone,
  held: Omit<HeldCancellationDeps, 'db'>,
): RouteSpec[] {
  const contractPath = '/crew/config/hotels/:hotel_config_id/contracts';
  const requestsPath = '/crew/config/hotels/change-requests';
  return [
    route({
      method: 'post',
      path: contractPath,
      operationId: 'createContract',
      summary: 'Create a contract under a configured hotel (automated booking starts switched off)',
      tags: TAGS,
      auth: requiredScope('post', contractPath),
      params: HotelConfigIdParams,
      body: ContractBody,
      responses: { 201: { description: 'The contract', schema: Contract }, ...errorResponses([401, 403, 404, 422]) },
      handler: async ({ res, params, body }) => {
        const airlineId = principal(res).airline_id;
        const issues = contractDateIssues(body);
        if (issues.length) throw ApiError.validation(issues);
        const hotel = await configRepo.findCurrentHotel(db, airlineId, params.hotel_config_id);
        if (!hotel) throw ApiError.notFound('Hotel');
        const cost = await contractCostFields(null, body, () => zoneOf(hotel.property_id, airlineId));
        return {
          status: 201,
          body: contractView(await configRepo.insertContract(db, airlineId, params.hotel_config_id, body, cost)),
        };
      },
    }),
    route({
      method: 'get',
      path: contractPath,
      operationId: 'listContracts',
      summary: "A hotel's contracts",
      tags: TAGS,
      auth: requiredScope('get', contractPath),
      params: HotelConfigIdParams,
      responses: {
        200: { description: 'Contracts', schema: Type.Object({ contracts: Type.Array(Contract) }) },
        ...errorResponses([401, 403, 404]),
      },
      handler: async ({ res, params }) => {
        const airlineId = principal(res).airline_id;
        if (!(await configRepo.findCurrentHotel(db, airlineId, params.hotel_config_id)))
          throw ApiError.notFound('Hotel');
        return {
          status: 200,
          body: {
            contracts: (await configRepo.listContracts(db, airlineId, params.hotel_config_id)).map(contractView),
          },
        };
      },
    }),
    route({
      method: 'patch',
      path: `${contractPath}/:contract_id`,
      operationId: 'patchContract',
      summary: "Change a contract's cancellation terms; an omitted field keeps its value, null clears it",
      description:
        'cancellation_deadline {days_before, local_time}, late_cancellation_fee and no_show_fee ({type: AMOUNT, amount} or {type: NIGHTS, nights}), hotel_time_zone and incidentals_covered. Terms need a deadline; a cancellation is judged against the terms in force when it is made. A fault is 422 naming each bad field and changes nothing.',
      tags: TAGS,
      auth: requiredScope('patch', contractPath),
      params: ContractParams,
      body: ContractPatchBody,
      responses: { 200: { description: 'The contract', schema: Contract }, ...errorResponses([401, 403, 404, 422]) },
      handler: async ({ res, params, body }) => {
        const airlineId = principal(res).airline_id;
        // Merged into the stored terms under the contract's row lock: of two PATCHes at once, the second merges
        // into the first's result instead of writing its fields back.
        const { updated, hotel } = await db.transaction().execute(async (trx) => {
          const contract = await configRepo.lockContract(trx, airlineId, params.contract_id);
          if (!contract || contract.hotel_config_id !== params.hotel_config_id) throw ApiError.notFound('Contract');
          const current = await configRepo.findCurrentHotel(trx, airlineId, contract.hotel_config_id);
          const cost = await contractCostFields(contract, body, async () =>
            current ? zoneOf(current.property_id, airlineId) : null,
          );
          return { updated: await configRepo.setContractCost(trx, contract.contract_id, cost), hotel: current };
        });
        // A hold never runs past the deadline: holds the new terms put past it end sooner (the terms committed).
        if (hotel) await shortenHeldCancellations({ db, ...held }, airlineId, hotel.base_station);
        return { status: 200, body: contractView(updated) };
      },
    }),
    route({
      method: 'put',
      path: `${contractPath}/:contract_id/rates`,
      operationId: 'setContractRates',
      summary: "Set a contract's rate periods (inside the contract dates, not overlapping)",
      tags: TAGS,
      auth: requiredScope('put', contractPath),
      params: ContractParams,
      body: ContractRatesBody,
      responses: { 200: { description: 'The contract', schema: Contract }, ...errorResponses([401, 403, 404, 422]) },
      handler: async ({ res, params, body }) => {
        const contract = await configRepo.findContract(db, principal(res).airline_id, params.contract_id);
        if (!contract || contract.hotel_config_id !== params.hotel_config_id) throw ApiError.notFound('Contract');
        const issues = contractRateIssues(contract, body.rate_periods);
        if (issues.length) throw ApiError.validation(issues, 'The rate periods do not fit the contract');
        return {
          status: 200,
          body: contractView(await configRepo.setContractRates(db, contract.contract_id, body.rate_periods)),
        };
      },
    }),
    route({
      method: 'post',
      path: requestsPath,
      operationId: 'raiseChangeRequest',
      summary: 'Ask the operator to switch automated booking on (ENABLE) or off (DISABLE) for a contract',
      tags: TAGS,
      auth: requiredScope('post', requestsPath),
      body: ChangeRequestBody,
      responses: {
        201: { description: 'The request, OPEN', schema: ChangeRequest },
        ...errorResponses([401, 403, 404, 409, 422]),
      },
      handler: async ({ res, body }) => {
        const p = principal(res);
        const contract = await configRepo.findContract(db, p.airline_id, body.contract_id);
        if (!contract) throw ApiError.notFound('Contract');
        try {
          const row = await configRepo.insertChangeRequest(db, {
            airline_id: p.airline_id,
            hotel_config_id: contract.hotel_config_id,
            contract_id: contract.contract_id,
            intent: body.intent,
            hotel_name: contract.hotel_name,
            station: contract.base_station,
            contract_number: contract.contract_number,
            contract_from: contract.contract_from,
            contract_to: contract.contract_to,
            requested_by: p.email,
          });
          // The operator's notification: a log line an alert can match, and the OPEN list of /ops/v1/change-requests.
          logger.warn(
            {
              event: 'hotel_change_request_raised',
              airline_id: p.airline_id,
              request_id: row.request_id,
              intent: row.intent,
              contract_id: row.contract_id,
            },
            'hotel change request awaits an operator decision',
          );
          return { status: 201, body: changeRequestView(row) };
        } catch (err) {
          if (isUniqueViolation(err)) throw ApiError.conflict('This contract already has an OPEN change request');
          throw err;
        }
      },
    }),
    route({
      method: 'get',
      path: requestsPath,
      operationId: 'listChangeRequests',
      summary: 'Hotel enable/disable change requests, newest first (open only by default)',
      tags: TAGS,
      auth: requiredScope('get', requestsPath),
      query: ChangeRequestListQuery,
      responses: {
        200: { description: 'Change requests', schema: Type.Object({ change_requests: Type.Array(ChangeRequest) }) },
        ...errorResponses([400, 401, 403]),
      },
      handler: async ({ res, query }) => {
        const rows = await configRepo.listChangeRequests(db, {
          airlineId: principal(res).airline_id,
          openOnly: query.open_only ?? true,
        });
        return { status: 200, body: { change_requests: rows.map(changeRequestView) } };
      },
    }),
    route({
      method: 'post',
      path: `${requestsPath}/:request_id/withdraw`,
      operationId: 'withdrawChangeRequest',
      summary: 'Withdraw an OPEN request; changes nothing on the hotel',
      tags: TAGS,
      auth: requiredScope('post', requestsPath),
      params: ChangeRequestParams,
      responses: {
        200: { description: 'The request, WITHDRAWN', schema: ChangeRequest },
        ...errorResponses([401, 403, 404, 409]),
      },
      handler: async ({ res, params }) => {
        const airlineId = principal(res).airline_id;
        if (!(await configRepo.findChangeRequest(db, params.request_id, airlineId)))
          throw ApiError.notFound('Change request');
        const row = await configRepo.closeChangeRequest(db, params.request_id, 'WITHDRAWN');
        if (!row) throw ApiError.conflict('Only an OPEN change request can be withdrawn');
        return { status: 200, body: changeRequestView(row) };
      },
    }),
  ];
}
