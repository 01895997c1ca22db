import { FX_PIVOT_CURRENCY, FxRateBody, FxRateParams, FxRatesList, FxRatesQuery, FxRateView } from '@crew/contracts';
import { fxRepo, type Db, type FxRateRow } from '@crew/db';
import { ApiError, errorResponses, route, type RouteSpec } from '@crew/platform';

const TAGS = ['Operator API'];

function fxRateView(r: FxRateRow) {
  return { currency: r.currency, rate: r.rate, as_of: r.as_of, set_by: r.set_by, set_at: r.set_at.toISOString() };
}

/**
 * The exchange-rate table: rates against USD with the date each holds from. The fare ceiling and
 * the hotel rate check compare money in one currency at the rate of the fare's (the night's) date.
 */
export function opsFxRoutes(db: Db, now: () => Date = () => new Date()): RouteSpec[] {
  return [
    route({
      method: 'put',
      path: '/fx-rates/:currency',
      operationId: 'opsSetFxRate',
      summary:
        'Set the rate of a currency in USD from a date (as_of, default today UTC); earlier rates are kept for earlier dates',
      tags: TAGS,
      auth: 'ops',
      params: FxRateParams,
      body: FxRateBody,
      responses: { 200: { description: 'The rate as stored', schema: FxRateView }, ...errorResponses([401, 422]) },
      handler: async ({ params, body }) => {
        if (!/^[A-Z]{3}$/.test(params.currency))
          throw ApiError.validation(
            [{ field: '/currency', issue: 'must be a 3-letter upper-case ISO 4217 code' }],
            'The currency is not valid',
          );
        if (params.currency === FX_PIVOT_CURRENCY)
          throw ApiError.validation(
            [{ field: '/currency', issue: `${FX_PIVOT_CURRENCY} is the pivot currency; its rate is always 1` }],
            'The currency is not valid',
          );
        const row = await fxRepo.setRate(db, {
          currency: params.currency,
          rate: body.rate,
          as_of: body.as_of ?? now().toISOString().slice(0, 10),
          set_by: body.set_by ?? null,
        });
        return { status: 200, body: fxRateView(row) };
      },
    }),
    route({
      method: 'get',
      path: '/fx-rates',
      operationId: 'opsListFxRates',
      summary:
        'Every exchange rate set, by currency, newest first (the rate of a date is the latest set on or before it)',
      tags: TAGS,
      auth: 'ops',
      query: FxRatesQuery,
      responses: { 200: { description: 'Exchange rates', schema: FxRatesList }, ...errorResponses([400, 401]) },
      handler: async ({ query }) => ({
        status: 200,
        body: {
          pivot_currency: FX_PIVOT_CURRENCY,
          fx_rates: (await fxRepo.listRates(db, query.currency)).map(fxRateView),
        },
      }),
    }),
  ];
}
