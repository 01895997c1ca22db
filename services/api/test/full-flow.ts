/**
 * A whole integration through the typed client, as an airline writes it: configuration, a contract the operator
 * approves, a roster, polling, action items, bookings, an amend, a cancellation and a manual flight commit.
 * No casts: every field read here (`booking.hotel?.check_out_date`, `booking.flight?.pnr`, …) is typed by
 * the generated schema. `npm run typecheck` compiles it (strict); services/api/test/api-client.test.ts
 * compiles it against the served document and runs it against the in-process stack.
 */
import {
  crewTravelClient,
  type ActionItem,
  type Booking,
  type components,
  type CrewTravelClient,
} from '@crew/api-client';

export interface FlowInput {
  /** The api's origin. */
  baseUrl: string;
  /** The auth service's origin (AUTH_URL). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The operator's token: approves the contract's change request and sets the traveller's date of birth. */
  opsToken: string;
  airlineId: string;
  travellerEmail: string;
  /** A roster with a layover at `station` and a deadhead leg, for `travellerEmail`. */
  roster: components['schemas']['ScheduleSubmission'];
  station: string;
  /** A GDS property at `station` (GET /api/v1/hotels finds one). */
  propertyId: string;
  fetch?: typeof globalThis.fetch;
}

export interface FlowResult {
  scheduleStatus: components['schemas']['ProcessingStatus']['status'];
  polls: number;
  actionItems: ActionItem[];
  hotelBefore: Booking;
  amended: Booking;
  cancelled: Booking;
  committed: Booking;
  /** The flight booking after GET …/status refreshed the ticket. */
  ticketed: Booking;
  pnr: string | undefined;
  checkOutDate: string | null | undefined;
}

/** The body of an answer, or an Error naming the operation and the error envelope. */
function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new Error(`${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(api: CrewTravelClient, bookingId: string): Promise<Booking> {
  for (let i = 0; i < 200; i++) {
    const booking = must(
      'GET booking',
      await api.GET('/api/v1/crew/bookings/{booking_id}', { params: { path: { booking_id: bookingId } } }),
    );
    if (booking.status !== 'PENDING') return booking;
    await sleep(100);
  }
  throw new Error(`booking ${bookingId} is still PENDING`);
}

export async function runFullFlow(input: FlowInput): Promise<FlowResult> {
  const common = { baseUrl: input.baseUrl, ...(input.fetch ? { fetch: input.fetch } : {}) };

  // 1. A token (client_credentials at the auth service, on its own host).
  const basic = `Basic ${Buffer.from(`${input.clientId}:${input.clientSecret}`).toString('base64')}`;
  const anonymous = crewTravelClient(common);
  const token = must(
    'POST /oauth/token',
    await anonymous.POST('/oauth/token', {
      baseUrl: input.authUrl,
      params: { query: { grant_type: 'client_credentials' } },
      headers: { Authorization: basic },
    }),
  );
  const api = crewTravelClient({ ...common, accessToken: token.access_token });
  const ops = crewTravelClient({ ...common, accessToken: input.opsToken });

  // 2. Configuration: the booking account, the station's hotel, a contract with rates, its approval.
  must(
    'PUT company config',
    await api.PUT('/api/v1/crew/config/company', {
      body: { crew_booker_email: 'booker@air.test', cancellation_lookback_days: 2 },
    }),
  );
  must(
    'PUT traveller',
    await ops.PUT('/ops/v1/airlines/{airline_id}/travellers/{traveller_email}', {
      params: { path: { airline_id: input.airlineId, traveller_email: input.travellerEmail } },
      body: { employee_id: 'E1', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-04-12' },
    }),
  );
  const hotels = must(
    'PUT hotel config',
    await api.PUT('/api/v1/crew/config/hotels', {
      body: {
        bases: [
          {
            base_station: input.station,
            hotels: [
              {
                property_id: input.propertyId,
                policy: 'STANDARD',
                standard_check_in_time: '15:00',
                standard_check_out_time: '11:00',
                buffer_minutes: 30,
              },
            ],
          },
        ],
      },
    }),
  );
  const hotelConfigId = hotels.bases[0]?.hotels[0]?.hotel_config_id;
  if (hotelConfigId === undefined) throw new Error('the hotel config has no hotel');
  const contract = must(
    'POST contract',
    await api.POST('/api/v1/crew/config/hotels/{hotel_config_id}/contracts', {
      params: { path: { hotel_config_id: hotelConfigId } },
      body: { contract_number: 'K-1', contract_from: '2027-01-01', contract_to: '2027-12-31' },
    }),
  );
  must(
    'PUT rates',
    await api.PUT('/api/v1/crew/config/hotels/{hotel_config_id}/contracts/{contract_id}/rates', {
      params: { path: { hotel_config_id: hotelConfigId, contract_id: contract.contract_id } },
      body: {
        rate_periods: [
          { effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 180, currency: 'USD' } },
        ],
      },
    }),
  );
  const request = must(
    'POST change request',
    await api.POST('/api/v1/crew/config/hotels/change-requests', {
      body: { contract_id: contract.contract_id, intent: 'ENABLE' },
    }),
  );
  must(
    'decide',
    await ops.POST('/ops/v1/change-requests/{request_id}/decide', {
      params: { path: { request_id: request.request_id } },
      body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
    }),
  );

  // 3. The roster, polled until the service says to stop.
  const accepted = must('POST schedule', await api.POST('/api/v1/crew/schedules', { body: input.roster }));
  const scheduleId = accepted.schedule_id;
  let status = must(
    'GET processing-status',
    await api.GET('/api/v1/crew/schedules/{schedule_id}/processing-status', {
      params: { path: { schedule_id: scheduleId } },
    }),
  );
  let polls = 1;
  while (status.poll_recommended) {
    if (polls > 300) throw new Error(`schedule ${scheduleId} still ${status.status}`);
    await sleep(100);
    status = must(
      'GET processing-status',
      await api.GET('/api/v1/crew/schedules/{schedule_id}/processing-status', {
        params: { path: { schedule_id: scheduleId } },
      }),
    );
    polls++;
  }

  // 4. What it produced.
  const items = must(
    'GET action items',
    await api.GET('/api/v1/crew/schedules/{schedule_id}/action-items', {
      params: { path: { schedule_id: scheduleId }, query: { limit: 200 } },
    }),
  );
  const deadhead = items.action_items.find((i) => i.type === 'FLIGHT' && i.classification === 'NEW_DEADHEAD');
  if (!deadhead) throw new Error('no NEW_DEADHEAD action item');
  const list = must(
    'GET bookings',
    await api.GET('/api/v1/crew/bookings', { params: { query: { schedule_id: scheduleId } } }),
  );
  const hotelBefore = list.bookings.find((b) => b.type === 'HOTEL');
  if (!hotelBefore?.hotel?.check_out_date) throw new Error('no hotel booking with a check-out date');

  // 5. Stay one night longer, then cancel.
  const amended = must(
    'PATCH booking',
    await api.PATCH('/api/v1/crew/bookings/{booking_id}', {
      params: { path: { booking_id: hotelBefore.booking_id } },
      body: { reason: 'crew rest extended', hotel: { check_out_date: nextDay(hotelBefore.hotel.check_out_date) } },
    }),
  );
  const cancelled = must(
    'DELETE booking',
    await api.DELETE('/api/v1/crew/bookings/{booking_id}', {
      params: { path: { booking_id: amended.booking_id }, query: { reason: 'pairing dropped' } },
    }),
  );

  // 6. The deadhead waits for a person: pick an option and commit it.
  const options = must(
    'GET flight options',
    await api.GET('/api/v1/crew/flight-options', { params: { query: { action_id: deadhead.action_id } } }),
  );
  const option = options.options[0];
  if (!option) throw new Error('no flight option');
  const committed = must(
    'POST bookings/request',
    await api.POST('/api/v1/crew/bookings/request', {
      headers: { 'Idempotency-Key': `commit-${deadhead.action_id}` },
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: {
          traveller_email: input.travellerEmail,
          employee_id: deadhead.anchors.employee_id ?? undefined,
          pairing_number: deadhead.anchors.pairing_number ?? undefined,
        },
        flight: { flight_option_id: option.flight_option_id },
      },
    }),
  );
  await settled(api, committed.booking_id);
  const refreshed = must(
    'GET booking status',
    await api.GET('/api/v1/crew/bookings/{booking_id}/status', {
      params: { path: { booking_id: committed.booking_id } },
    }),
  );
  const ticketed = refreshed.booking;

  return {
    scheduleStatus: status.status,
    polls,
    actionItems: items.action_items,
    hotelBefore,
    amended,
    cancelled,
    committed,
    ticketed,
    pnr: ticketed.flight?.pnr,
    checkOutDate: amended.hotel?.check_out_date,
  };
}
