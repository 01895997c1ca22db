import { AirlineIdParams, SupplierSettings, SupplierSettingsBody } from '@crew/contracts';
import { airlineChangeRepo, supplierSettingsRepo, tenancyRepo, type AirlineSuppliers, type Db } from '@crew/db';
import { supplierSettingIssues } from '@crew/engine';
import {
  ApiError,
  errorResponses,
  Keyring,
  KeyringError,
  route,
  safeEqual,
  type Config,
  type Logger,
  type RouteSpec,
} from '@crew/platform';
import {
  checkDuffelToken,
  deleteDuffelWebhook,
  duffelCallbackUrl,
  isSupplierError,
  registerDuffelWebhook,
} from '@crew/suppliers';

/** Checks a Duffel token with one cheap call; rejects with a SupplierError refusal when Duffel refuses it. */
export type DuffelTokenCheck = (token: string) => Promise<{ live_mode: boolean }>;

/** The check against the deployment's Duffel (DUFFEL_API_URL). */
export function duffelTokenCheck(config: Config): DuffelTokenCheck {
  return (token) => checkDuffelToken(config.duffelApiUrl, token);
}

/** Registers Duffel's webhook for an airline with its token; answers the webhook's id and its secret. */
export type DuffelWebhookRegistration = (token: string, url: string) => Promise<{ id: string; secret: string }>;

export function duffelWebhookRegistration(config: Config): DuffelWebhookRegistration {
  return (token, url) => registerDuffelWebhook(config.duffelApiUrl, token, url);
}

/** Deletes a webhook at Duffel with the token that registered it (one already gone counts as deleted). */
export type DuffelWebhookDeletion = (token: string, webhookId: string) => Promise<void>;

export interface SupplierSettingDeps {
  db: Db;
  config: Config;
  logger: Logger;
  checkDuffelToken: DuffelTokenCheck;
  /** Default: against the deployment's Duffel (DUFFEL_API_URL). */
  registerDuffelWebhook?: DuffelWebhookRegistration;
  /** Default: against the deployment's Duffel (DUFFEL_API_URL). */
  deleteDuffelWebhook?: DuffelWebhookDeletion;
  /** Told when an airline's setting changed (this process's cached adapters). */
  changed?: (airlineId: string) => void;
}

/** The setting as answered: which secrets are set, never the secrets. */
export function supplierSettingsView(row: AirlineSuppliers | undefined): SupplierSettings {
  if (!row) return { flights: ['SANDBOX'], hotels: ['SANDBOX'], duffel: null, own_airline: null, updated_at: null };
  return {
    flights: row.flights as SupplierSettings['flights'],
    hotels: row.hotels as SupplierSettings['hotels'],
    duffel: row.duffel_token_sealed
      ? {
          access_token_set: true,
          live_mode: row.duffel_live_mode ?? false,
          webhook_registered: row.duffel_webhook_id !== null,
        }
      : null,
    own_airline: row.own_airline_url
      ? {
          url: row.own_airline_url,
          carrier: row.own_airline_carrier ?? '',
          signing_secret_set: row.own_airline_secret_sealed !== null,
        }
      : null,
    updated_at: row.updated_at.toISOString(),
  };
}

/** Guard, check, store: the PUT of an airline's supplier order and connections. */
export async function putSupplierSettings(
  deps: SupplierSettingDeps,
  airlineId: string,
  body: SupplierSettingsBody,
): Promise<SupplierSettings> {
  const keyring = Keyring.parse(deps.config.supplierCredentialsKey);
  const stored = await supplierSettingsRepo.findSupplierSettings(deps.db, airlineId);
  const own = body.own_airline === undefined ? 'keep' : body.own_airline;
  const ownSecret = own === 'keep' || own === null ? null : (own.signing_secret ?? null);
  const ownSet =
    own === null
      ? false
      : own === 'keep'
        ? stored?.own_airline_url != null
        : ownSecret !== null || stored?.own_airline_secret_sealed != null;
  const issues = supplierSettingIssues({
    flights: body.flights,
    hotels: body.hotels,
    duffelToken: body.duffel === undefined ? stored?.duffel_token_sealed != null : body.duffel !== null,
    ownAirline: ownSet,
    production: deps.config.nodeEnv === 'production',
    sandboxAllowed: deps.config.supplierSandboxAllowed,
  });
  if (own !== 'keep' && own !== null && !/^https:/i.test(own.url) && deps.config.nodeEnv === 'production')
    issues.push({ field: '/own_airline/url', issue: 'must be an https URL' });
  if (issues.length > 0) throw ApiError.validation(issues, 'The supplier setting cannot be used');
  let duffel = {
    sealed: stored?.duffel_token_sealed ?? null,
    live: stored?.duffel_live_mode ?? null,
    webhookId: stored?.duffel_webhook_id ?? null,
    webhookSecret: stored?.duffel_webhook_secret_sealed ?? null,
  };
  // The stored token's webhook, when this PUT drops or replaces that token: deleted at Duffel once the PUT stands.
  let retired: { token: string | null; id: string } | null = null;
  if (body.duffel === null) duffel = { sealed: null, live: null, webhookId: null, webhookSecret: null };
  else if (body.duffel) {
    const token = body.duffel.access_token;
    const live = await checkToken(deps, token);
    // The token already stored (a PUT of the same secrets, as a SUPPLIER_CREDENTIALS_KEY rotation does) keeps its
    // webhook, re-sealed with the newest key: registering again would leave a second one at Duffel, posting events
    // signed with a secret we no longer hold. A new token's webhook is registered below (the old token's is not
    // this token's).
    const stillStored = stored?.duffel_token_sealed ? openOrNull(keyring, stored.duffel_token_sealed, airlineId) : null;
    const webhookSecret =
      stillStored !== null &&
      safeEqual(stillStored, token) &&
      stored?.duffel_webhook_id &&
      stored.duffel_webhook_secret_sealed
        ? openOrNull(keyring, stored.duffel_webhook_secret_sealed, airlineId)
        : null;
    duffel = {
      sealed: keyring.seal(token, airlineId),
      live,
      webhookId: webhookSecret === null ? null : (stored?.duffel_webhook_id ?? null),
      webhookSecret: webhookSecret === null ? null : keyring.seal(webhookSecret, airlineId),
    };
  }
  const storedHook = stored?.duffel_webhook_id ?? null;
  if (storedHook !== null && duffel.webhookId !== storedHook)
    retired = {
      token: stored?.duffel_token_sealed ? openOrNull(keyring, stored.duffel_token_sealed, airlineId) : null,
      id: storedHook,
    };
  const saved = await supplierSettingsRepo.saveSupplierSettings(deps.db, airlineId, {
    flights: [...body.flights],
    hotels: [...body.hotels],
    duffel_token_sealed: duffel.sealed,
    duffel_live_mode: duffel.live,
    duffel_webhook_id: duffel.webhookId,
    duffel_webhook_secret_sealed: duffel.webhookSecret,
    own_airline_url: own === 'keep' ? (stored?.own_airline_url ?? null) : (own?.url ?? null),
    own_airline_carrier: own === 'keep' ? (stored?.own_airline_carrier ?? null) : (own?.carrier ?? null),
    own_airline_secret_sealed:
      own === 'keep'
        ? (stored?.own_airline_secret_sealed ?? null)
        : own === null
          ? null
          : ownSecret
            ? keyring.seal(ownSecret, airlineId)
            : (stored?.own_airline_secret_sealed ?? null),
  });
  deps.changed?.(airlineId);
  deps.logger.info(
    {
      airline_id: airlineId,
      flights: saved.flights,
      hotels: saved.hotels,
      duffel_set: saved.duffel_token_sealed !== null,
    },
    'supplier setting changed',
  );
  if (retired) await deleteWebhook(deps, airlineId, retired.token, retired.id);
  if (saved.duffel_token_sealed && saved.duffel_webhook_id === null) {
    const registered = await registerWebhook(
      deps,
      keyring,
      airlineId,
      saved.duffel_token_sealed,
      body.duffel ? body.duffel.access_token : keyring.open(saved.duffel_token_sealed, airlineId),
    );
    if (registered) return supplierSettingsView({ ...saved, ...registered });
    return supplierSettingsView(await supplierSettingsRepo.findSupplierSettings(deps.db, airlineId));
  }
  return supplierSettingsView(saved);
}

/** A sealed secret of the airline, or null when it no longer opens (its key was dropped from the list). */
function openOrNull(keyring: Keyring, sealed: string, airlineId: string): string | null {
  try {
    return keyring.open(sealed, airlineId);
  } catch (err) {
    if (err instanceof KeyringError) return null;
    throw err;
  }
}

/**
 * Registers Duffel's webhook for the airline's token, so airline-initiated changes reach us as they happen.
 * A failure never fails the PUT: the setting stands without it (the next PUT or the worker's periodic check
 * registers it), and the answer says `webhook_registered: false`.
 */
async function registerWebhook(
  deps: SupplierSettingDeps,
  keyring: Keyring,
  airlineId: string,
  tokenSealed: string,
  token: string,
) {
  const register = deps.registerDuffelWebhook ?? duffelWebhookRegistration(deps.config);
  try {
    const hook = await register(token, duffelCallbackUrl(deps.config.publicApiUrl, airlineId));
    const secretSealed = keyring.seal(hook.secret, airlineId);
    if (!(await airlineChangeRepo.saveDuffelWebhook(deps.db, airlineId, tokenSealed, hook.id, secretSealed))) {
      // Another PUT or the worker's periodic check recorded one meanwhile (or the token changed): this one is
      // deleted at Duffel again (left there, its events would fail our signature check).
      await deleteWebhook(deps, airlineId, token, hook.id);
      return null;
    }
    return { duffel_webhook_id: hook.id, duffel_webhook_secret_sealed: secretSealed };
  } catch (err) {
    // Never the error's own text: a client library may quote the request, token included.
    deps.logger.warn(
      { airline_id: airlineId, code: isSupplierError(err) ? err.code : 'ERROR' },
      'Duffel webhook registration failed; retried by the next PUT or the periodic check',
    );
    return null;
  }
}

/**
 * Deletes a webhook we no longer record (its token replaced or dropped, or a registration that lost a race), with
 * the token that registered it. A failure never fails the PUT: the webhook's events fail our signature check, and
 * the log names it for the operator to delete in the Duffel dashboard.
 */
async function deleteWebhook(
  deps: SupplierSettingDeps,
  airlineId: string,
  token: string | null,
  webhookId: string,
): Promise<void> {
  const remove = deps.deleteDuffelWebhook ?? ((t, id) => deleteDuffelWebhook(deps.config.duffelApiUrl, t, id));
  try {
    if (token === null) throw new Error('the token that registered it no longer opens');
    await remove(token, webhookId);
    deps.logger.info({ airline_id: airlineId, webhook_id: webhookId }, 'Duffel webhook no longer recorded, deleted');
  } catch (err) {
    // Never the error's own text: a client library may quote the request, token included.
    deps.logger.warn(
      { airline_id: airlineId, webhook_id: webhookId, code: isSupplierError(err) ? err.code : 'ERROR' },
      'Duffel webhook no longer recorded and not deleted; delete it in the Duffel dashboard',
    );
  }
}

/** One cheap call to Duffel; its refusal is the caller's 422, an outage a 503 (nothing stored either way). */
async function checkToken(deps: SupplierSettingDeps, token: string): Promise<boolean> {
  try {
    return (await deps.checkDuffelToken(token)).live_mode;
  } catch (err) {
    if (isSupplierError(err) && !err.transient)
      throw ApiError.validation(
        [{ field: '/duffel/access_token', issue: `Duffel refused the token (${err.code})` }],
        'The supplier setting cannot be used',
      );
    // Never the error's own text: a client library may quote the request, token included.
    deps.logger.warn({ code: isSupplierError(err) ? err.code : 'ERROR' }, 'Duffel token check failed');
    throw ApiError.unavailable('Duffel could not be reached to check the token; nothing was stored. Try again.');
  }
}

const TAGS = ['Operator API'];

export function opsSupplierRoutes(deps: SupplierSettingDeps): RouteSpec[] {
  const airlineOr404 = async (airlineId: string) => {
    if (!(await tenancyRepo.findAirline(deps.db, airlineId))) throw ApiError.notFound('Airline');
  };
  return [
    route({
      method: 'put',
      path: '/airlines/:airline_id/suppliers',
      operationId: 'opsPutSuppliers',
      summary: "Set an airline's supplier order and connections (secrets are write-only)",
      description:
        'Priority orders of `SANDBOX`, `DUFFEL`, `OWN_AIRLINE` (flights only). An omitted `duffel` keeps the stored token, `null` removes it; a new token is checked with Duffel first. ' +
        "Duffel's webhook is then registered with a new token (`duffel.webhook_registered`); the token already stored, sent again, keeps its webhook. A failed registration never fails the PUT and is retried by the next PUT or the worker's periodic check. " +
        'No setting means `SANDBOX` only. In production `SANDBOX` is refused unless the deployment sets `SUPPLIER_SANDBOX_ALLOWED=true`.',
      tags: TAGS,
      auth: 'ops',
      params: AirlineIdParams,
      body: SupplierSettingsBody,
      responses: {
        200: { description: 'The setting, without secrets', schema: SupplierSettings },
        ...errorResponses([401, 404, 422, 503]),
      },
      handler: async ({ params, body }) => {
        await airlineOr404(params.airline_id);
        return { status: 200, body: await putSupplierSettings(deps, params.airline_id, body) };
      },
    }),
    route({
      method: 'get',
      path: '/airlines/:airline_id/suppliers',
      operationId: 'opsGetSuppliers',
      summary: "An airline's supplier order and connections (without secrets)",
      description:
        'The priority orders and which secrets are set (`access_token_set`, `signing_secret_set`), never the secrets. No setting answers `SANDBOX` only with `updated_at: null`.',
      tags: TAGS,
      auth: 'ops',
      params: AirlineIdParams,
      responses: { 200: { description: 'The setting', schema: SupplierSettings }, ...errorResponses([401, 404]) },
      handler: async ({ params }) => {
        await airlineOr404(params.airline_id);
        return {
          status: 200,
          body: supplierSettingsView(await supplierSettingsRepo.findSupplierSettings(deps.db, params.airline_id)),
        };
      },
    }),
  ];
}
