import { CompanyConfig, CompanyConfigBody, requiredScope } from '@crew/contracts';
import { tenancyRepo, type Db } from '@crew/db';
import { ApiError, route, type RouteSpec, errorResponses } from '@crew/platform';
import { principal } from '../auth/guard';

const TAGS = ['Configuration'];
const errors = errorResponses;

async function view(db: Db, airlineId: string) {
  const [airline, company] = await Promise.all([
    tenancyRepo.findAirline(db, airlineId),
    tenancyRepo.findCompanyConfig(db, airlineId),
  ]);
  // A token whose airline is gone is treated like any missing resource.
  if (!airline || !company) throw ApiError.notFound('Company config');
  return {
    crew_booker_email: company.crew_booker_email,
    cancellation_lookback_days: company.cancellation_lookback_days,
    automation: {
      schedules_access: airline.schedules_access,
      deadhead_auto_booking: airline.deadhead_auto_booking,
      booking_modification: airline.booking_modification,
      swap_execution: airline.swap_execution,
      cancellation_execution: airline.cancellation_execution,
      emit_unchanged: airline.emit_unchanged,
    },
    rate_match_mode: airline.rate_match_mode,
    max_retries: airline.max_retries,
    updated_at: company.updated_at.toISOString(),
  };
}

export function companyConfigRoutes(db: Db): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/crew/config/company',
      operationId: 'getCompanyConfig',
      summary: 'Company settings, with the operator-controlled automation flags (read-only)',
      tags: TAGS,
      auth: requiredScope('get', '/crew/config/company'),
      responses: { 200: { description: 'Company config', schema: CompanyConfig }, ...errors([401, 403]) },
      handler: async ({ res }) => ({ status: 200, body: await view(db, principal(res).airline_id) }),
    }),
    route({
      method: 'put',
      path: '/crew/config/company',
      operationId: 'putCompanyConfig',
      summary: 'Set crew_booker_email and cancellation_lookback_days; an omitted field keeps its value',
      tags: TAGS,
      auth: requiredScope('put', '/crew/config/company'),
      body: CompanyConfigBody,
      responses: { 200: { description: 'Company config', schema: CompanyConfig }, ...errors([401, 403, 422]) },
      handler: async ({ res, body }) => {
        const airlineId = principal(res).airline_id;
        const current = await tenancyRepo.findCompanyConfig(db, airlineId);
        if (!current) throw ApiError.notFound('Company config');
        // crew_booker_email is required by the spec; once set, leaving it out keeps it.
        if (body.crew_booker_email === undefined && current.crew_booker_email === null) {
          throw ApiError.validation([{ field: '/crew_booker_email', issue: 'is required' }]);
        }
        await tenancyRepo.updateCompanyConfig(db, airlineId, body);
        return { status: 200, body: await view(db, airlineId) };
      },
    }),
  ];
}
