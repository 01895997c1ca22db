import type { Request } from 'express';
import {
  ACTION_CSV_COLUMNS,
  ActionItemList,
  ActionItemListQuery,
  AuditEventList,
  AuditEventListQuery,
  ProcessingStatus,
  requiredScope,
  ScheduleAccepted,
  ScheduleDetail,
  ScheduleIdParams,
  ScheduleList,
  ScheduleListQuery,
  ScheduleSubmission,
  type ActionItem,
} from '@crew/contracts';
import { scheduleRepo, type Db, type ScheduleRow } from '@crew/db';
import { hasDiffResult } from '@crew/engine';
import {
  ApiError,
  bindLog,
  errorResponses,
  keysetPage,
  payloadTooLarge,
  seqCursor,
  route,
  streamedBody,
  type RouteSpec,
} from '@crew/platform';
import type { OutboxRelay } from '@crew/queue';
import { principal } from '../auth/guard';
import { sendCsv } from '../http/csv';
import type { RosterIntake, RosterSummary } from './roster-intake';
import { acceptSchedule } from './schedules.service';
import { actionItemView, auditEventView, progressOf, scheduleDetail, summaryOf, type ReviewFieldName } from './views';
import { actionItemViews } from '../action-items/views';

const TAGS = ['Schedules'];
// Level 1 (in the handler): the roster is stored once and read once; speed matters more than ratio.
/** A big airline's roster is ~75 MB of JSON; leave room (gzip-encoded bodies are measured inflated). */
export const SCHEDULE_BODY_LIMIT = '256mb';

function csvRow(item: Omit<ActionItem, ReviewFieldName>): unknown[] {
  return ACTION_CSV_COLUMNS.map((col) => {
    const [head, tail] = col.split('.') as [keyof typeof item, string | undefined];
    const value = tail ? (item[head] as Record<string, unknown> | null)?.[tail] : item[head];
    return value;
  });
}

/**
 * Reads a submitted roster (bodyMode 'stream') through the intake thread and answers it parsed, validated
 * and compressed, or throws the error a bad body gets (shared by the submission and its preview).
 */
export async function checkedRoster(
  intake: RosterIntake,
  req: Request,
): Promise<{ summary: RosterSummary; compressed: Buffer }> {
  const checked = await intake.check(req, streamedBody(req)!);
  if (checked.kind === 'malformed')
    throw ApiError.invalid('The request body is not valid JSON', [{ field: '/', issue: 'malformed JSON' }]);
  if (checked.kind === 'unreadable') throw ApiError.invalid('The request body could not be read or decoded');
  if (checked.kind === 'too_large') throw payloadTooLarge();
  if (checked.kind === 'invalid') throw ApiError.validation(checked.issues);
  return checked;
}

export function scheduleRoutes(db: Db, relay: OutboxRelay, intake: RosterIntake): RouteSpec[] {
  async function scheduleOr404(airlineId: string, scheduleId: string) {
    const s = await scheduleRepo.findSchedule(db, airlineId, scheduleId);
    if (!s) throw ApiError.notFound('Schedule');
    return s;
  }

  /**
   * The summary counters. A QUEUED or PROCESSING schedule has no items yet (engine hasDiffResult): they are not
   * looked for, so a poll while a big roster is written does not visit every row that write has added so far.
   */
  function countsOf(schedules: ScheduleRow[]) {
    return scheduleRepo.scheduleCounts(
      db,
      schedules.map((s) => s.schedule_id),
      schedules.filter((s) => hasDiffResult(s.status)).map((s) => s.schedule_id),
    );
  }

  return [
    route({
      method: 'post',
      path: '/crew/schedules',
      operationId: 'submitSchedule',
      summary: 'Submit the complete current roster for a date window; processed asynchronously',
      description:
        'Answers 202 once the roster is stored. Poll processing-status until poll_recommended is false, then read action items and bookings.',
      tags: TAGS,
      auth: requiredScope('post', '/crew/schedules'),
      body: ScheduleSubmission,
      bodyLimit: SCHEDULE_BODY_LIMIT,
      // Read, decoded, parsed, validated and compressed in a worker thread (RosterIntake): 75 MB of JSON must not stall the event loop.
      bodyMode: 'stream',
      responses: {
        202: { description: 'Accepted, QUEUED', schema: ScheduleAccepted },
        ...errorResponses([400, 401, 403, 413, 415, 422]),
      },
      handler: async ({ req, res }) => {
        const checked = await checkedRoster(intake, req);
        const airlineId = principal(res).airline_id;
        const accepted = await acceptSchedule(db, relay, airlineId, checked.summary, checked.compressed);
        bindLog(res, { schedule_id: accepted.schedule_id });
        return { status: 202, body: accepted, headers: { Location: accepted.links.status } };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules',
      operationId: 'listSchedules',
      summary: 'Submissions, most recent first',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules'),
      query: ScheduleListQuery,
      responses: { 200: { description: 'Schedules', schema: ScheduleList }, ...errorResponses([400, 401, 403]) },
      handler: async ({ res, query }) => {
        const airlineId = principal(res).airline_id;
        const limit = query.limit ?? 50;
        const filter = { from: query.from, to: query.to, status: query.status };
        const before = seqCursor(query.cursor);
        const [rows, total] = await Promise.all([
          scheduleRepo.listSchedules(db, airlineId, filter, limit, before),
          scheduleRepo.countSchedules(db, airlineId, filter),
        ]);
        const p = keysetPage(rows, limit);
        const counts = await countsOf(p.rows);
        return {
          status: 200,
          body: {
            schedules: p.rows.map((s) => scheduleDetail(s, counts.get(s.schedule_id)!)),
            next_cursor: p.next_cursor,
            total_results: total,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules/:schedule_id',
      operationId: 'getSchedule',
      summary: 'One submission with its summary',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules/x'),
      params: ScheduleIdParams,
      responses: { 200: { description: 'Schedule', schema: ScheduleDetail }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        const s = await scheduleOr404(principal(res).airline_id, params.schedule_id);
        const counts = await countsOf([s]);
        return { status: 200, body: scheduleDetail(s, counts.get(s.schedule_id)!) };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules/:schedule_id/processing-status',
      operationId: 'getProcessingStatus',
      summary: 'Processing status; poll while poll_recommended is true',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules/x'),
      params: ScheduleIdParams,
      responses: {
        200: { description: 'Processing status', schema: ProcessingStatus },
        ...errorResponses([401, 403, 404]),
      },
      handler: async ({ res, params }) => {
        const s = await scheduleOr404(principal(res).airline_id, params.schedule_id);
        const c = (await countsOf([s])).get(s.schedule_id)!;
        const progress = progressOf(s, c);
        return {
          status: 200,
          body: {
            schedule_id: s.schedule_id,
            status: progress.status,
            received_at: s.received_at.toISOString(),
            started_at: s.started_at ? s.started_at.toISOString() : null,
            completed_at: s.completed_at ? s.completed_at.toISOString() : null,
            error: s.error,
            flight_tasks_pending: progress.flight_tasks_pending,
            poll_recommended: progress.poll_recommended,
            summary: summaryOf(c),
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules/:schedule_id/action-items',
      operationId: 'listActionItems',
      summary: 'Action items of a submission (read after poll_recommended is false)',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules/x'),
      params: ScheduleIdParams,
      query: ActionItemListQuery,
      responses: {
        200: { description: 'Action items', schema: ActionItemList },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        const airlineId = principal(res).airline_id;
        await scheduleOr404(airlineId, params.schedule_id);
        const limit = query.limit ?? 50;
        const rows = await scheduleRepo.listActionItems(db, params.schedule_id, query, limit, seqCursor(query.cursor));
        const p = keysetPage(rows, limit);
        return {
          status: 200,
          body: { action_items: await actionItemViews(db, airlineId, p.rows), next_cursor: p.next_cursor },
        };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules/:schedule_id/audit-events',
      operationId: 'listAuditEvents',
      summary: 'Data-quality audit events of a submission (DATA_QUALITY_FLAG, DUPLICATE_ROW)',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules/x'),
      params: ScheduleIdParams,
      query: AuditEventListQuery,
      responses: {
        200: { description: 'Audit events', schema: AuditEventList },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        await scheduleOr404(principal(res).airline_id, params.schedule_id);
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await scheduleRepo.listAuditEvents(db, params.schedule_id, limit, seqCursor(query.cursor)),
          limit,
        );
        return { status: 200, body: { audit_events: p.rows.map(auditEventView), next_cursor: p.next_cursor } };
      },
    }),
    route({
      method: 'get',
      path: '/crew/schedules/:schedule_id/actions.csv',
      operationId: 'exportActionItemsCsv',
      summary: 'Every action item of the submission as CSV (RFC 4180), streamed',
      tags: TAGS,
      auth: requiredScope('get', '/crew/schedules/x'),
      params: ScheduleIdParams,
      responses: {
        200: { description: 'One row per action item', contentType: 'text/csv' },
        ...errorResponses([401, 403, 404]),
      },
      handler: async ({ res, params }) => {
        await scheduleOr404(principal(res).airline_id, params.schedule_id);
        async function* pages() {
          let after: number | null = null;
          for (;;) {
            const rows = await scheduleRepo.listActionItems(db, params.schedule_id, {}, 2000, after);
            for (const r of rows.slice(0, 2000)) yield csvRow(actionItemView(r));
            if (rows.length <= 2000) return;
            after = rows[1999]!.seq;
          }
        }
        return sendCsv(res, `actions-${params.schedule_id}.csv`, ACTION_CSV_COLUMNS, pages());
      },
    }),
  ];
}
