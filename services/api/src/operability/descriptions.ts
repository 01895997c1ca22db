/**
 * The behaviour rules of each operation (spec sections 4-5, DESIGN sections 2-4, docs/decisions.md), as the
 * OpenAPI `description` of the operation, by operationId. Kept in one table rather than in the route
 * declarations so the whole contract reads in one place; a route may still carry its own `description`
 * (it wins, and must then be absent here). The OpenAPI test fails on an operation without a description
 * and on an entry naming no operation.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // ---- configuration (spec 4.3)
  getCompanyConfig:
    'The booking account (`crew_booker_email`) and `cancellation_lookback_days`, plus the operator-controlled levers under `automation`, ' +
    '`rate_match_mode` and `max_retries` (read-only here: the operator sets them).',
  putCompanyConfig:
    'Only `crew_booker_email` and `cancellation_lookback_days` are accepted; every automation switch is operator-controlled. ' +
    '`crew_booker_email` is required until it has been set once; after that an omitted field keeps its value. ' +
    'Engine-driven hotel bookings, amendments and cancellations are placed under `crew_booker_email` (spec 1 rule 11). 422 on any other field.',
  getHotelConfig:
    'The active hotel config; historical snapshots are read with getConfigVersion. Before the first PUT: `{bases: [], version: null, active: false, updated_at: null}`.',
  putHotelConfig:
    'Rules (spec 4.3):\n' +
    '1. Full replacement, not a merge; one hotel per base. The previous config is archived as an immutable version; each booking records the version in force (`config_version_used`).\n' +
    '2. The channel is derived per `property_id`: found in the GDS inventory means GDS; not found with a `chain` means DIRECT (not validated externally); ' +
    'not found without `chain` is 422 `UNKNOWN_HOTEL_PROPERTY`.\n' +
    '3. `handler_type` (and the other output-only fields) are not accepted on input.\n' +
    '4. Rates are not set here: omitting `rate_periods` leaves rates untouched, an empty array clears legacy rates, a non-empty list is 422 `CONTRACT_REQUIRED_FOR_RATE` (rates belong to contracts).\n' +
    '5. 409 `CONFLICT` when the payload leaves out a hotel that has contracts, or changes the terms (chain, policy and its times, flex window, buffer, contract rate) of a hotel whose automated booking is on.',
  getFlightConfig:
    'The flight config: `preferred_airlines`, `blacklisted_airlines`, `preferred_cabin`, `same_carrier_preference`, plus `version` and `updated_at` (`version` null before the first PUT).',
  putFlightConfig:
    'Replaces the flight config (omitted fields take their defaults) and archives a new immutable version. Blacklisted carriers are never booked; ' +
    'preferred carriers are tried first, then any other non-blacklisted one; with `same_carrier_preference` the airline’s own carrier comes before the preferred list. ' +
    'The engine never books a cabin above `preferred_cabin`; a `cabin_class` on a booking request overrides it for that request.',
  getFlightRules: '`auto_book_max_price` (null: no ceiling) and `updated_at`.',
  putFlightRules:
    'Only supplied fields change; `auto_book_max_price: null` removes the ceiling. A deadhead fare above the ceiling is not auto-booked: the booking is held as NEEDS_REVIEW.',
  getConfigVersion:
    'An immutable snapshot: `config_type` `hotels` answers a hotel config, `flights` a flight config. Every version the airline created resolves (`v1`, `v2`, …); ' +
    'an unknown version or any other `config_type` is 404.',

  // ---- hotel contracts and change requests (DESIGN 4)
  listContracts:
    'The contracts of one configured hotel (`hotel_config_id` from GET /crew/config/hotels), with their rate periods and whether automated booking is enabled.',
  createContract:
    'Creates a contract under a configured hotel. Automated booking starts switched off: enabling it is a change request the operator approves. ' +
    'A layover auto-books only when an enabled contract covers every night and a rate period covers each night; otherwise the booking is NEEDS_REVIEW ' +
    '(`no hotel configuration exists for station XXX`). ' +
    'Additive: the cancellation terms (`cancellation_deadline`, `late_cancellation_fee`, `no_show_fee`), read in the hotel’s time zone (`hotel_time_zone`, else the inventory’s), and `incidentals_covered`; a fault is 422 naming each bad field.',
  setContractRates:
    'Replaces the contract’s rate periods. 422 when a period leaves the contract dates or two periods overlap.',
  listChangeRequests:
    'Newest first. `open_only` (default true); false also lists APPROVED, DECLINED and WITHDRAWN requests.',
  raiseChangeRequest:
    'Asks the operator to switch automated booking on (ENABLE) or off (DISABLE) for a contract. The request changes nothing on the hotel until the operator approves it. ' +
    '`requested_by` is the token’s email. 409 `CONFLICT` when the contract already has an OPEN request.',
  withdrawChangeRequest:
    'Withdraws a request the operator has not decided yet; changes nothing on the hotel. 409 `CONFLICT` when the request is not OPEN.',

  // ---- schedules (spec 4.1)
  listSchedules:
    'No filter is required. `from`/`to` are dates of receipt (UTC, inclusive); `limit` 1..200 (default 50). Most recent submission first; pass `next_cursor` back as `cursor`.',
  getSchedule:
    'One submission: processing status, start and end times and the action-item summary. Another airline’s schedule is 404.',
  getProcessingStatus:
    'Poll this after submitting. `poll_recommended` is true while the schedule still progresses by itself (QUEUED, PROCESSING, or BOOKING with a supplier call in flight); ' +
    'it is false once the status is terminal or BOOKING is held only by items awaiting a person (a NEEDS_REVIEW booking, say). Then stop polling and read the action items and bookings. ' +
    'A COMPLETED hotel branch is reported as BOOKING while deadhead tasks run (`flight_tasks_pending` > 0). COMPLETED does not mean every booking succeeded.',
  listActionItems:
    'Read after `poll_recommended` is false: an empty list right after submit usually means processing is unfinished. Filters `type`, `subtype`, `priority`, `disposition`; ' +
    '`disposition` is null while the item’s booking task still runs. `classification` is an open set: handle values you do not know.',
  listAuditEvents:
    'Data-quality audit events of the submission (DATA_QUALITY_FLAG, DUPLICATE_ROW); their count is `summary.audit_events`.',
  exportActionItemsCsv:
    'One row per action item, in the order of spec 2.3 with `anchors` and `source_rows` flattened (`anchors.employee_id`, …); RFC 4180 quoting, CRLF, a header row. ' +
    "A cell starting with `= + - @`, tab or CR is prefixed with `'` (spreadsheet formula injection). Streamed.",

  // ---- bookings (spec 4.4)
  listBookings:
    'At least one filter is required, else 400 `INVALID_REQUEST`; any one of them satisfies it (`type`, `status` and the date filters too). Any anchor gives the same record set. ' +
    '`from_date`/`to_date` filter on the booking’s duty date. Newest first; pass `next_cursor` back as `cursor`.',
  retryQueue:
    'FAILED bookings waiting for an automatic retry (`AUTO_RETRY_DELAYS`, up to the airline’s `max_retries`), with the next attempt time and the previous error.',
  listRetryJobs:
    'The retry jobs created with POST /crew/bookings/retry-jobs, newest first, with their status and counts; pass `next_cursor` back as `cursor`.',
  createRetryJob:
    'Retries every FAILED booking matching the filters (the list filters of GET /crew/bookings, at least one) as one job. `succeeded`/`failed` count the bookings as they settle; ' +
    '`status` is RUNNING until all have settled, then COMPLETED, or FAILED when every one failed.',
  getRetryJob: 'A retry job’s status and progress. 404 for an unknown id.',
  requestBooking:
    'Rules (spec 4.4):\n' +
    '1. HOTEL: booked asynchronously by the same engine as the schedule flow (duplicate check, supplier choice, rate from the contract). `property_id` pins the hotel; without it the station’s configured hotel is used.\n' +
    '2. FLIGHT with `flight_option_id` (from GET /crew/flight-options): ticketed under the calling user at the supplier of the airline’s order that issued the option (`flight.supplier`); `pnr`, `ticket_id`, `transaction_id`, `trip_session_id` appear in the `flight` block after GET …/status refreshed them from that supplier.\n' +
    '2a. FLIGHT with `pnr` and `ticket_id` (and the leg’s route and date): the airline booked the crew seat in its own reservation system (a BOOK_IN_OWN_SYSTEM review item). No supplier is called: the booking is CONFIRMED at once with `flight.supplier` OWN_AIRLINE and `live_mode` true, its item AUTO_BOOKED. One of the two without the other is 422 naming the missing field.\n' +
    '3. FLIGHT without `flight_option_id` but with `from_airport`, `to_airport`, `depart_date`: the best match is searched and booked for `anchors.traveller_email`.\n' +
    '4. 202 with the booking PENDING (NEEDS_REVIEW when policy holds it). 409 `CONFLICT` when a live booking of the same type already exists for the same anchors (traveller, date and, when given, pairing): ' +
    'modify it, or release it with `manual_override: false`. A NEEDS_REVIEW booking holding no reservation (a BOOK_MANUALLY deadhead) is fulfilled instead: same `booking_id`. ' +
    '422 `DATE_OF_BIRTH_REQUIRED` for a flight when the traveller profile has no date of birth (its message and `details` name `date_of_birth` and the `PUT /api/v1/crew/travellers/{employee_id}` that sets it), `TRAVELLER_NOT_FOUND` for an unknown `anchors.traveller_email`.\n' +
    '5. An expired `flight_option_id` does not fail up front: 202, and the booking ends NEEDS_REVIEW.\n' +
    'Sets `manual_override` true unless the body says false: the diff engine then neither modifies nor cancels the booking. `irop_ref` is required when `source` is IROP. ' +
    'Idempotent with `Idempotency-Key`: a repeat for the same airline returns the booking the first call created.',
  getBooking:
    'The full booking. The `hotel` block carries the stay asked for and what the supplier holds (property, confirmation, `check_in_date`/`check_out_date`, rates); ' +
    'the `flight` block the leg asked for and the ticket (carrier, flight number, times, cabin, fare; `pnr`, `ticket_id`, `transaction_id`, `trip_session_id` after a status refresh). Another airline’s booking is 404.',
  patchBooking:
    'The block must match the booking’s type (`hotel` for HOTEL, `flight` for FLIGHT), else 422. Always performs the requested change (not gated by the modification lever); ' +
    'the strict-price lever still decides whether a rate mismatch fails the amend or is flagged.\n' +
    '- Hotel date change on a CONFIRMED booking: supplier amend → MODIFIED (same `booking_id` and confirmation); a supplier refusal → NEEDS_REVIEW. 409 when the booking holds no confirmed room.\n' +
    '- Hotel property swap, or any flight change (`flight_option_id`, or `desired_arrival_by`; an empty block means full auto-booking): cancel-and-rebook; the answer is the new booking, with `replaces_booking_id`.\n' +
    '- Only `manual_override`/`reason`: nothing changes at the supplier. `manual_override: false` hands the booking back to the diff engine from the next submission; after any other change it is true unless false is sent.\n' +
    'The answer waits up to 10 s for the supplier call and shows the booking as it then stands. 409 `CONFLICT` while another supplier call for the booking is in flight ' +
    '(a booking only waiting for an answer, a DIRECT hotel’s rooming list or the airline’s own system’s callback, is not: the change is accepted and waits for that answer).',
  cancelBooking:
    'Cancels at the supplier. Sets `manual_override` true, locking the booking from the diff engine whatever the outcome. 202 with the booking CANCELLED, ' +
    'or NEEDS_REVIEW when the supplier refused (the ticket or room remains; DELETE again retries the cancellation). Cancelling a CANCELLED booking changes nothing and calls no supplier. ' +
    '`reason` (the query parameter, or a JSON body `{"reason": …}`; the query parameter wins when both give one) is audit-logged. 409 `CONFLICT` while another supplier call for the booking is in flight. ' +
    'A crew seat the airline’s own system has not answered yet is not: the answer is 202 with the booking PENDING, and the seat is given back once the airline’s callback names it.',
  getBookingStatus:
    '`current_status` and the full history of transitions (`{status, at, reason, actor}`). Also refreshes the supplier’s live state into the booking (PNR, ticket, transaction and trip-session ids; ' +
    'the room’s status and dates) and stores it; when the supplier cannot be reached the stored state is answered.',
  retryBooking:
    'Only for a FAILED booking: 202 with the booking PENDING and `retry_count` + 1. 409 `CONFLICT` when the booking is not FAILED (including a retry already running) ' +
    'or its `max_retries` (operator lever, default 3, shared with the automatic retries) are used up.',
  injectActionItem:
    'For disruptions (IROPs) and ad-hoc needs the roster does not reflect yet. `type` must match the sub-object: HOTEL needs `hotel`, FLIGHT needs `flight` (route and date constraints; the engine searches, ' +
    'no `flight_option_id`). `irop_ref` is required when `source` is IROP; `priority` defaults to P2. The classifications IROP_HOTEL_CANCEL, LAYOVER_CANCELLED, DEADHEAD_CANCELLED and PAIRING_CANCELLED ' +
    'cancel the live booking matching the anchors; every other one books.\n' +
    '202 with the created action item; booking runs asynchronously for HOTEL and FLIGHT: poll GET /crew/bookings/{booking_id}/status. If no flight matches the active flight config, the item is PENDING_REVIEW. ' +
    '409 `CONFLICT` when a live booking of the same type already exists for the anchors. Sets `manual_override` true unless the body says false. ' +
    'Idempotent with `Idempotency-Key`: a repeat for the same airline replays the original action item.',

  // ---- search (spec 4.4, 4.5)
  searchHotels:
    'Global, airline-independent search of the GDS inventory (GDS-bookable hotels only), to find a `property_id` before registering it in the hotel config. ' +
    'At least one of `name`, `city` (partial, case-insensitive, at least 2 characters) or `airport_code` is required, else 400. Results of several filters are unioned, ' +
    'de-duplicated on `property_id` and sorted. 503 when the supplier cannot be reached.',

  // ---- operator API (DESIGN 3)
  opsListAirlines: 'Every airline (tenant) with its settings.',
  opsCreateAirline:
    'Creates an airline with the default settings (every lever off, `rate_match_mode` STRICT, `max_retries` 3). `carrier_code` is its 2-letter IATA code.',
  opsGetSettings: 'The operator levers of spec section 1 for one airline.',
  opsPatchSettings:
    'Any subset of the levers. `schedules_access` offers the schedules scopes at client registration; `deadhead_auto_booking` auto-books roster deadheads; `booking_modification`, ' +
    '`swap_execution`, `cancellation_execution` let the engine act instead of raising review items; `rate_match_mode` LOOSE books and flags a rate mismatch instead of holding it; ' +
    '`emit_unchanged` emits UNCHANGED items; `max_retries` bounds retries per booking.',
  opsCreateUser:
    'Creates a user of the airline. The `user_token` is shown once; `<user_id>:<user_token>` is the Bearer credential of POST /oauth/register. 409 when the email is taken.',
  opsUpsertTraveller:
    'Creates or updates a traveller profile. The date of birth is set only here; a flight booking for a profile without one cannot be made (422 on POST /crew/bookings/request, NEEDS_REVIEW on the engine path).',
  opsListChangeRequests: 'Hotel change requests of every airline, newest first; `status` filters.',
  opsDecideChangeRequest:
    'APPROVED+ENABLE switches automated booking on for the contract, APPROVED+DISABLE switches it off; DECLINED changes nothing. 409 `CONFLICT` when the request is not OPEN.',
  opsSetFxRate:
    'Sets the rate of a currency against the USD pivot, holding from `as_of` (default today, UTC); earlier rates stay in force for earlier dates. ' +
    'The fare ceiling and the hotel rate check compare money in one currency at the rate of the fare’s (the night’s) date. 422 for USD itself or a code that is not ISO 4217 shaped.',
  opsListFxRates: 'Every rate set, by currency, newest first; the rate of a date is the latest set on or before it.',

  // ---- operations
  healthz: 'Liveness probe: 200 while the process answers. No authentication.',
  readyz:
    'Readiness probe: 200 only once Postgres answers and is migrated and Redis answers, else 503 with the failing check false. No authentication.',
  openApiDocument:
    'This document, generated from the route declarations (the schemas that validate requests). Rendered at /docs. No authentication.',
  metrics:
    'Prometheus text format: process metrics, request durations by route template and status, BullMQ queue depths. No authentication (keep it off the public network).',

  // ---- DIRECT hotels' rooming lists
  listRoomingLists:
    'Every rooming list version of a DIRECT hotel (one not in the GDS inventory, registered with a `chain`), newest first: its night, version, status ' +
    '(QUEUED: waiting for its send time or the mail server, with `last_error`; SENT: awaiting the hotel until `expires_at`; ANSWERED; EXPIRED: no answer, its stays are NEEDS_REVIEW), ' +
    'when it was sent, opened and answered, and its rows (NEW, AMENDED, CANCELLED; `row_ref` is the stay’s reference in every version) with the hotel’s confirmation numbers or reasons. ' +
    'A hotel of another airline is 404. `limit` 1..200 (default 50), `cursor` from `next_cursor`.',
  opsResendRoomingList:
    'E-mails the same list version again, for the hotel to answer: same rows, same references (so the hotel holds no second room), a fresh link and the same answer deadline. ' +
    'A list still waiting (for its send time or the mail server) is tried at once; one being e-mailed at this moment is left as it is (202: it is on its way, never sent twice at once). ' +
    'The worker sends it on its next pass (ROOMING_POLL_MS). 409 `CONFLICT` for a list the hotel answered or whose answer deadline has passed (the page takes no answer then; its stays are with the review queue). 404 for an unknown list.',

  // ---- auth service (spec 5)
  registerClient:
    'Registers an OAuth client once, authenticated as a user (`Authorization: Bearer <user_id>:<user_token>`, from the operator). `scopes` is space-separated; without it every scope offered ' +
    'to the airline is granted. `schedules:read`/`schedules:write` are offered only once the operator enabled `schedules_access`; an unknown or not-offered scope is 400 `INVALID_SCOPE`. ' +
    'The `client_secret` is shown once.',
  issueToken:
    'The `client_credentials` grant: `grant_type=client_credentials` in the query (or, as RFC 6749 has it, in a form body) and HTTP Basic `client_id:client_secret`. ' +
    'Answers an access token (JWT, about 15 minutes, `expires_in` in seconds) and a refresh token. A bad secret or unknown client is 401. Answers CORS requests from any origin (no cookies are involved).',
  refreshToken:
    'Exchanges a refresh token (query `refresh_token`, no other credential) for a fresh access token and a new refresh token. Refresh tokens are one-time: reusing one is 401 and revokes its whole family. ' +
    'On a 401 from the API, refresh and retry.',
  jwks: 'The public keys (ES256) that verify access tokens, by `kid`. Keys are rotated without downtime; cache for at most a minute.',
};
