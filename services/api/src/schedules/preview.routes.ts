import { PREVIEW_MAX_PAIRINGS, requiredScope, SchedulePreview, ScheduleSubmission } from '@crew/contracts';
import type { Db } from '@crew/db';
import { ApiError, errorResponses, route, type RouteSpec, type TravellerVault } from '@crew/platform';
import { principal } from '../auth/guard';
import type { RosterIntake } from './roster-intake';
import { previewSchedule } from './preview.service';
import { checkedRoster, SCHEDULE_BODY_LIMIT } from './schedules.routes';

/** POST /crew/schedules/preview: the dry run of a roster, answered synchronously. */
export function schedulePreviewRoutes(
  db: Db,
  intake: RosterIntake,
  vault: TravellerVault,
  now: () => Date = () => new Date(),
): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/crew/schedules/preview',
      operationId: 'previewSchedule',
      summary:
        'Dry run: the action items a roster would derive, and what the booking policy would do with each, without writing anything',
      description:
        `The same body, validation and limits as POST /crew/schedules (gzip accepted). The roster is diffed against the airline’s current state (its latest processed roster and its bookings in the window) and each item is put to the booking policy, exactly as processing would, but nothing is stored, no supplier is called and the next real submission derives the same items. ` +
        `Answered synchronously for rosters of at most ${PREVIEW_MAX_PAIRINGS} pairings; a bigger roster is refused with 422 (preview a part of it, e.g. a shorter window). ` +
        'Counts per classification, outcome and disposition come first; `reason` says why an item would need a person, in the words of the spec rule that sends it to review.',
      tags: ['Schedules'],
      auth: requiredScope('post', '/crew/schedules/preview'),
      body: ScheduleSubmission,
      bodyLimit: SCHEDULE_BODY_LIMIT,
      bodyMode: 'stream',
      responses: {
        200: { description: 'The preview', schema: SchedulePreview },
        ...errorResponses([400, 401, 403, 413, 415, 422]),
      },
      handler: async ({ req, res }) => {
        const checked = await checkedRoster(intake, req);
        if (checked.summary.pairing_count > PREVIEW_MAX_PAIRINGS) {
          throw ApiError.validation(
            [
              {
                field: '/pairings',
                issue: `a preview takes at most ${PREVIEW_MAX_PAIRINGS} pairings (this roster has ${checked.summary.pairing_count}); preview a shorter window`,
              },
            ],
            'The roster is larger than a preview takes',
          );
        }
        return {
          status: 200,
          body: await previewSchedule(db, vault, principal(res).airline_id, checked.compressed, now()),
        };
      },
    }),
  ];
}
