/**
 * @crew/api-client: a typed client of the Crew Travel Booking Service. The types are generated from the
 * service's own OpenAPI document (src/schema.ts, openapi-typescript); calls go through openapi-fetch, so a
 * path, its parameters, its body and each status's answer are checked by the compiler.
 *
 *   const api = crewTravelClient({ baseUrl: 'https://api.example', accessToken });
 *   const { data, error } = await api.GET('/api/v1/crew/bookings/{booking_id}', { params: { path: { booking_id } } });
 *   data?.flight?.pnr; // string | undefined
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

type Schemas = components['schemas'];
export type Booking = Schemas['Booking'];
export type BookingHotel = Schemas['BookingHotel'];
export type BookingFlight = Schemas['BookingFlight'];
export type ActionItem = Schemas['ActionItem'];
export type ActionItemDetails = Schemas['ActionItemDetails'];
/** An open set (spec 2.4): `string`; schema.ts lists the known values, and a later release may add others. */
export type Classification = Schemas['Classification'];
export type ProcessingStatus = Schemas['ProcessingStatus'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

export type CrewTravelClient = Client<paths>;

export interface CrewTravelClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The api's origin (`https://api.example`); paths carry `/api/v1` and `/ops/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`: an airline access token, or the operator token for `/ops/v1`. */
  accessToken?: string;
}

export function crewTravelClient({ accessToken, ...options }: CrewTravelClientOptions): CrewTravelClient {
  const client = createClient<paths>(options);
  if (accessToken) {
    client.use({
      onRequest({ request }) {
        // A call that brings its own credential (HTTP Basic at /oauth/token, say) keeps it.
        if (!request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${accessToken}`);
        return request;
      },
    });
  }
  return client;
}

export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks';
