import {
  ActionInjectionBody,
  ActionItem,
  Booking,
  BOOKING_FILTERS,
  BookingIdParams,
  BookingList,
  BookingListQuery,
  BookingRequestBody,
  BookingStatusView,
  DeleteBookingBody,
  DeleteBookingQuery,
  IDEMPOTENCY_HEADER,
  PageOnlyQuery,
  PatchBookingBody,
  requiredScope,
  RetryJob,
  RetryJobBody,
  RetryJobList,
  RetryJobParams,
  RetryQueue,
} from '@crew/contracts';
import { bookingRepo, scheduleRepo, type BookingFilter, retryJobRepo } from '@crew/db';
import {
  ApiError,
  bindLog,
  decodeCursor,
  encodeCursor,
  isBigintPosition,
  errorResponses,
  keysetPage,
  seqCursor,
  route,
  type RouteSpec,
} from '@crew/platform';
import { principal } from '../auth/guard';
import { actionItemViews } from '../action-items/views';
import { bookingOr404, deleteBooking, patchBooking, type BookingDeps } from './bookings.service';
import { withIdempotency } from './idempotency';
import { requestBooking } from './requests.service';
import { retryBooking, startRetryJob } from './retries.service';
import { refreshBooking } from './status-refresh.service';
import { bookingView } from './views';

const TAGS = ['Bookings'];

type Progress = Awaited<ReturnType<typeof retryJobRepo.retryJobProgress>>[number];
function retryJobView(p: Progress) {
  const done = p.succeeded + p.failed >= p.total;
  const status = !done ? 'RUNNING' : p.total > 0 && p.failed === p.total ? 'FAILED' : 'COMPLETED';
  return {
    retry_job_id: p.retry_job_id,
    status,
    total: p.total,
    succeeded: p.succeeded,
    failed: p.failed,
    created_at: p.created_at.toISOString(),
  } as const;
}

export function bookingRoutes(deps: BookingDeps): RouteSpec[] {
  const { db } = deps;
  const path = '/crew/bookings';
  return [
    route({
      method: 'get',
      path,
      operationId: 'listBookings',
      summary: 'Bookings matching at least one filter, newest first',
      tags: TAGS,
      auth: requiredScope('get', path),
      query: BookingListQuery,
      responses: { 200: { description: 'Bookings', schema: BookingList }, ...errorResponses([400, 401, 403]) },
      handler: async ({ res, query }) => {
        const filter = Object.fromEntries(
          BOOKING_FILTERS.filter((f) => query[f] !== undefined).map((f) => [f, query[f]]),
        ) as BookingFilter;
        if (Object.keys(filter).length === 0)
          throw ApiError.invalid(`At least one filter is required: ${BOOKING_FILTERS.join(', ')}`, [
            { field: 'query', issue: 'no filter given' },
          ]);
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await bookingRepo.listBookings(db, principal(res).airline_id, filter, limit, seqCursor(query.cursor)),
          limit,
        );
        return { status: 200, body: { bookings: p.rows.map((b) => bookingView(b)), next_cursor: p.next_cursor } };
      },
    }),
    route({
      method: 'get',
      path: `${path}/retry-queue`,
      operationId: 'retryQueue',
      summary: 'FAILED bookings scheduled for an automatic retry, with the next attempt time and the last error',
      tags: TAGS,
      auth: requiredScope('get', path),
      query: PageOnlyQuery,
      responses: { 200: { description: 'Retry queue', schema: RetryQueue }, ...errorResponses([400, 401, 403]) },
      handler: async ({ res, query }) => {
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await bookingRepo.retryQueue(db, principal(res).airline_id, limit, seqCursor(query.cursor)),
          limit,
        );
        const retry_queue = p.rows.map((b) => ({
          booking_id: b.booking_id,
          type: b.type,
          status: b.status,
          retry_count: b.retry_count,
          next_attempt_at: b.next_attempt_at!.toISOString(),
          last_error: b.last_error,
          employee_id: b.employee_id,
          pairing_number: b.pairing_number,
          schedule_id: b.schedule_id,
        }));
        return { status: 200, body: { retry_queue, next_cursor: p.next_cursor } };
      },
    }),
    route({
      method: 'post',
      path: `${path}/retry-jobs`,
      operationId: 'createRetryJob',
      summary: 'Retry every FAILED booking matching the filters, tracked as one job',
      tags: TAGS,
      auth: requiredScope('post', path),
      body: RetryJobBody,
      responses: { 202: { description: 'The retry job', schema: RetryJob }, ...errorResponses([401, 403, 422]) },
      handler: async ({ res, body }) => {
        const caller = principal(res);
        const retryJobId = await startRetryJob(deps, caller, body);
        const [progress] = await retryJobRepo.retryJobProgress(db, caller.airline_id, [retryJobId]);
        return { status: 202, body: retryJobView(progress!) };
      },
    }),
    route({
      method: 'get',
      path: `${path}/retry-jobs`,
      operationId: 'listRetryJobs',
      summary: 'Retry jobs, newest first',
      tags: TAGS,
      auth: requiredScope('get', path),
      query: PageOnlyQuery,
      responses: { 200: { description: 'Retry jobs', schema: RetryJobList }, ...errorResponses([400, 401, 403]) },
      handler: async ({ res, query }) => {
        const airlineId = principal(res).airline_id;
        const limit = query.limit ?? 50;
        const ids = await retryJobRepo.listRetryJobIds(
          db,
          airlineId,
          limit,
          query.cursor ? (decodeCursor<{ b: number }>(query.cursor, (v) => isBigintPosition(v.b))?.b ?? null) : null,
        );
        const more = ids.length > limit;
        const kept = more ? ids.slice(0, limit) : ids;
        const progress = await retryJobRepo.retryJobProgress(
          db,
          airlineId,
          kept.map((r) => r.retry_job_id),
        );
        return {
          status: 200,
          body: {
            retry_jobs: progress.map(retryJobView),
            next_cursor: more ? encodeCursor({ b: kept[kept.length - 1]!.seq }) : null,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: `${path}/retry-jobs/:retry_job_id`,
      operationId: 'getRetryJob',
      summary: 'A retry job’s status and progress',
      tags: TAGS,
      auth: requiredScope('get', path),
      params: RetryJobParams,
      responses: { 200: { description: 'Retry job', schema: RetryJob }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        const [p] = await retryJobRepo.retryJobProgress(db, principal(res).airline_id, [params.retry_job_id]);
        if (!p) throw ApiError.notFound('Retry job');
        return { status: 200, body: retryJobView(p) };
      },
    }),
    route({
      method: 'post',
      path: `${path}/request`,
      operationId: 'requestBooking',
      summary: 'Commit a booking the airline has chosen (flight_option_id), or ask the engine to search and book',
      tags: TAGS,
      auth: requiredScope('post', path),
      headers: IDEMPOTENCY_HEADER,
      body: BookingRequestBody,
      responses: {
        202: { description: 'The booking, PENDING (or NEEDS_REVIEW when policy holds it)', schema: Booking },
        ...errorResponses([400, 401, 403, 409, 422]),
      },
      handler: async ({ req, res, body }) => {
        const caller = principal(res);
        return withIdempotency(
          db,
          caller.airline_id,
          'POST /crew/bookings/request',
          req.get('Idempotency-Key'),
          body,
          (answer) =>
            requestBooking(deps, caller, body, 'commit', async (trx, { bookingId }) => {
              bindLog(res, { booking_id: bookingId });
              const booking = await bookingRepo.findBooking(trx, bookingId, caller.airline_id);
              return answer(trx, { status: 202, body: bookingView(booking!) });
            }),
        );
      },
    }),
    route({
      method: 'get',
      path: `${path}/:booking_id`,
      operationId: 'getBooking',
      summary: 'A booking',
      tags: TAGS,
      auth: requiredScope('get', path),
      params: BookingIdParams,
      responses: { 200: { description: 'Booking', schema: Booking }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => ({
        status: 200,
        body: bookingView(await bookingOr404(db, principal(res).airline_id, params.booking_id)),
      }),
    }),
    route({
      method: 'patch',
      path: `${path}/:booking_id`,
      operationId: 'patchBooking',
      summary:
        'Amend (hotel dates), cancel-and-rebook (hotel property, any flight change) or hand back (manual_override false)',
      tags: TAGS,
      auth: requiredScope('patch', path),
      params: BookingIdParams,
      body: PatchBookingBody,
      responses: {
        202: {
          description: 'The booking reflecting the outcome (the new one after a cancel-and-rebook)',
          schema: Booking,
        },
        ...errorResponses([401, 403, 404, 409, 422]),
      },
      handler: async ({ res, params, body }) => {
        bindLog(res, { booking_id: params.booking_id });
        const { booking, replaces } = await patchBooking(deps, principal(res), params.booking_id, body);
        return { status: 202, body: bookingView(booking, replaces ? { replaces_booking_id: replaces } : {}) };
      },
    }),
    route({
      method: 'delete',
      path: `${path}/:booking_id`,
      operationId: 'cancelBooking',
      summary: 'Cancel at the supplier; locks the booking from the diff engine (manual_override true)',
      tags: TAGS,
      auth: requiredScope('delete', path),
      params: BookingIdParams,
      query: DeleteBookingQuery,
      // The reason in a JSON body too (clients that send one with DELETE); the query parameter wins.
      body: DeleteBookingBody,
      bodyOptional: true,
      responses: {
        202: { description: 'The booking: CANCELLED, or NEEDS_REVIEW when the supplier refused', schema: Booking },
        ...errorResponses([401, 403, 404, 409, 422]),
      },
      handler: async ({ res, params, query, body }) => {
        bindLog(res, { booking_id: params.booking_id });
        const reason = query.reason ?? body.reason;
        return { status: 202, body: bookingView(await deleteBooking(deps, principal(res), params.booking_id, reason)) };
      },
    }),
    route({
      method: 'get',
      path: `${path}/:booking_id/status`,
      operationId: 'getBookingStatus',
      summary: 'Current status and full transition history; refreshes the supplier’s live state (PNR, ticket, …)',
      tags: TAGS,
      auth: requiredScope('get', path),
      params: BookingIdParams,
      responses: { 200: { description: 'Status', schema: BookingStatusView }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        const b = await refreshBooking(deps, principal(res), params.booking_id);
        const history = await bookingRepo.bookingHistory(db, b.booking_id);
        return {
          status: 200,
          body: {
            booking_id: b.booking_id,
            current_status: b.status,
            history: history.map((h) => ({ ...h, at: h.at.toISOString() })),
            booking: bookingView(b),
          },
        };
      },
    }),
    route({
      method: 'post',
      path: `${path}/:booking_id/retry`,
      operationId: 'retryBooking',
      summary: 'Retry a FAILED booking (409 otherwise, while a retry runs, or past max_retries)',
      tags: TAGS,
      auth: requiredScope('post', path),
      params: BookingIdParams,
      responses: {
        202: { description: 'The booking, PENDING', schema: Booking },
        ...errorResponses([401, 403, 404, 409]),
      },
      handler: async ({ res, params }) => ({
        status: 202,
        body: bookingView(await retryBooking(deps, principal(res), params.booking_id)),
      }),
    }),
    route({
      method: 'post',
      path: '/crew/action-items',
      operationId: 'injectActionItem',
      summary: 'Inject an action item (IROP or ad hoc); the engine searches and books asynchronously',
      tags: ['Action items'],
      auth: requiredScope('post', '/crew/action-items'),
      headers: IDEMPOTENCY_HEADER,
      body: ActionInjectionBody,
      responses: {
        202: { description: 'The created action item', schema: ActionItem },
        ...errorResponses([400, 401, 403, 409, 422]),
      },
      handler: async ({ req, res, body }) => {
        const caller = principal(res);
        return withIdempotency(
          db,
          caller.airline_id,
          'POST /crew/action-items',
          req.get('Idempotency-Key'),
          body,
          (answer) =>
            requestBooking(deps, caller, body, 'injection', async (trx, { actionId }) => {
              const item = await scheduleRepo.findActionItem(trx, caller.airline_id, actionId!);
              const [view] = await actionItemViews(trx, caller.airline_id, [item!]);
              return answer(trx, { status: 202, body: view });
            }),
        );
      },
    }),
  ];
}
