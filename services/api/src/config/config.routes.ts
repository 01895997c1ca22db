import { Type } from '@sinclair/typebox';
import {
  ConfigVersionParams,
  FlightConfig,
  FlightConfigBody,
  FlightRules,
  FlightRulesBody,
  HotelConfig,
  HotelConfigBody,
  requiredScope,
  type FlightConfigSnapshot,
} from '@crew/contracts';
import { configRepo, type Db } from '@crew/db';
import { DEFAULT_FLIGHT_CONFIG, flightConfigIssues } from '@crew/engine';
import { ApiError, errorResponses, route, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { currentHotelConfig, replaceHotelConfig, type PropertyDirectory } from './hotels.service';

const TAGS = ['Configuration'];

async function flightConfigView(db: Db, airlineId: string) {
  const latest = await configRepo.latestFlightConfig(db, airlineId);
  return latest
    ? { ...latest.snapshot, version: `v${latest.version}`, updated_at: latest.created_at.toISOString() }
    : { ...DEFAULT_FLIGHT_CONFIG, version: null, updated_at: null };
}

async function flightRulesView(db: Db, airlineId: string) {
  const rules = await configRepo.findFlightRules(db, airlineId);
  return {
    auto_book_max_price: rules?.auto_book_max_price ?? null,
    fare_conditions: rules?.fare_conditions ?? 'ANY',
    updated_at: rules ? rules.updated_at.toISOString() : null,
  };
}

export function configRoutes(db: Db, directory: PropertyDirectory): RouteSpec[] {
  const scope = requiredScope;
  return [
    route({
      method: 'get',
      path: '/crew/config/hotels',
      operationId: 'getHotelConfig',
      summary:
        'The active hotel config (one hotel per base), with output-only hotel_config_id, handler_type and automated_booking_enabled',
      tags: TAGS,
      auth: scope('get', '/crew/config/hotels'),
      responses: { 200: { description: 'Hotel config', schema: HotelConfig }, ...errorResponses([401, 403]) },
      handler: async ({ res }) => ({ status: 200, body: await currentHotelConfig(db, principal(res).airline_id) }),
    }),
    route({
      method: 'put',
      path: '/crew/config/hotels',
      operationId: 'putHotelConfig',
      summary: 'Replace the hotel config (full replacement; archives a new immutable version)',
      tags: TAGS,
      auth: scope('put', '/crew/config/hotels'),
      body: HotelConfigBody,
      responses: {
        200: { description: 'The new hotel config', schema: HotelConfig },
        ...errorResponses([401, 403, 409, 422]),
      },
      handler: async ({ res, body }) => ({
        status: 200,
        body: await replaceHotelConfig(db, directory, principal(res).airline_id, body),
      }),
    }),
    route({
      method: 'get',
      path: '/crew/config/flights',
      operationId: 'getFlightConfig',
      summary: 'The flight config (carrier preferences, blacklist, cabin)',
      tags: TAGS,
      auth: scope('get', '/crew/config/flights'),
      responses: { 200: { description: 'Flight config', schema: FlightConfig }, ...errorResponses([401, 403]) },
      handler: async ({ res }) => ({ status: 200, body: await flightConfigView(db, principal(res).airline_id) }),
    }),
    route({
      method: 'put',
      path: '/crew/config/flights',
      operationId: 'putFlightConfig',
      summary: 'Replace the flight config (omitted fields take their defaults); archives a new version',
      tags: TAGS,
      auth: scope('put', '/crew/config/flights'),
      body: FlightConfigBody,
      responses: {
        200: { description: 'The new flight config', schema: FlightConfig },
        ...errorResponses([401, 403, 422]),
      },
      handler: async ({ res, body }) => {
        const issues = flightConfigIssues(body);
        if (issues.length) throw ApiError.validation(issues, 'A carrier cannot be both preferred and blacklisted');
        const airlineId = principal(res).airline_id;
        const snapshot: FlightConfigSnapshot = { ...DEFAULT_FLIGHT_CONFIG, ...body };
        const row = await db.transaction().execute(async (trx) => {
          await configRepo.lockAirline(trx, airlineId);
          const latest = await configRepo.latestVersion(trx, 'flight_config_versions', airlineId);
          return configRepo.insertFlightVersion(trx, airlineId, (latest?.version ?? 0) + 1, snapshot);
        });
        return {
          status: 200,
          body: { ...snapshot, version: `v${row.version}`, updated_at: row.created_at.toISOString() },
        };
      },
    }),
    route({
      method: 'get',
      path: '/crew/config/flight-rules',
      operationId: 'getFlightRules',
      summary: 'Flight rules: the per-ticket auto-booking ceiling',
      tags: TAGS,
      auth: scope('get', '/crew/config/flight-rules'),
      responses: { 200: { description: 'Flight rules', schema: FlightRules }, ...errorResponses([401, 403]) },
      handler: async ({ res }) => ({ status: 200, body: await flightRulesView(db, principal(res).airline_id) }),
    }),
    route({
      method: 'put',
      path: '/crew/config/flight-rules',
      operationId: 'putFlightRules',
      summary: 'Set flight rules; only supplied fields change',
      tags: TAGS,
      auth: scope('put', '/crew/config/flight-rules'),
      body: FlightRulesBody,
      responses: { 200: { description: 'Flight rules', schema: FlightRules }, ...errorResponses([401, 403, 422]) },
      handler: async ({ res, body }) => {
        const airlineId = principal(res).airline_id;
        if (body.auto_book_max_price !== undefined || body.fare_conditions !== undefined)
          await configRepo.upsertFlightRules(db, airlineId, body);
        return { status: 200, body: await flightRulesView(db, airlineId) };
      },
    }),
    route({
      method: 'get',
      path: '/crew/config/:config_type/versions/:version',
      operationId: 'getConfigVersion',
      summary: 'An immutable snapshot of a hotels or flights config version (v1, v2, …)',
      tags: TAGS,
      auth: scope('get', '/crew/config/hotels/versions/v1'),
      params: ConfigVersionParams,
      responses: {
        200: { description: 'Hotel or flight config', schema: Type.Union([HotelConfig, FlightConfig]) },
        ...errorResponses([401, 403, 404]),
      },
      handler: async ({ res, params }) => {
        const m = /^v([1-9][0-9]{0,8})$/.exec(params.version);
        const table =
          params.config_type === 'hotels'
            ? 'hotel_config_versions'
            : params.config_type === 'flights'
              ? 'flight_config_versions'
              : null;
        if (!m || !table) throw ApiError.notFound('Config version');
        const row = await configRepo.findVersion(db, table, principal(res).airline_id, Number(m[1]));
        if (!row) throw ApiError.notFound('Config version');
        return {
          status: 200,
          body: { ...row.snapshot, version: `v${row.version}`, updated_at: row.created_at.toISOString() },
        };
      },
    }),
  ];
}
