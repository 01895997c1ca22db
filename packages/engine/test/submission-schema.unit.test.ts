import { ActionItem, checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import { crew, duty, p1, pairing, submission } from './fixtures';

/** The issues of a body, or [] when it is valid. */
function issues(body: unknown) {
  const checked = checkBody(ScheduleSubmission, body);
  return checked.ok ? [] : checked.issues;
}

const valid = () => JSON.parse(JSON.stringify(submission([p1()])));

describe('ScheduleSubmission schema (spec 2.1)', () => {
  it('accepts a complete submission, a duty period without legs, and a crew member without union_code', () => {
    expect(issues(valid())).toEqual([]);
    expect(issues(submission([pairing('P2', [crew('E1')], [duty(1, '2026-12-10', [])])]))).toEqual([]);
  });

  it('rejects an empty pairings array (spec 4.1)', () => {
    expect(issues({ ...valid(), pairings: [] })).toEqual([
      { field: '/pairings', issue: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('requires the window dates and the pairing, crew, duty period, leg and layover fields', () => {
    const body = valid();
    delete body.schedule_end_date;
    delete body.pairings[0].crew[0].traveller_email;
    delete body.pairings[0].duty_periods[0].legs[0].arr_time_local;
    delete body.pairings[0].duty_periods[0].layover.booking_required;
    delete body.pairings[0].check_in_local;
    expect(
      issues(body)
        .map((i) => i.field)
        .sort(),
    ).toEqual([
      '/pairings/0/check_in_local',
      '/pairings/0/crew/0/traveller_email',
      '/pairings/0/duty_periods/0/layover/booking_required',
      '/pairings/0/duty_periods/0/legs/0/arr_time_local',
      '/schedule_end_date',
    ]);
  });

  it('rejects unknown properties, unknown enums, bad airports, timestamps without offset and over-long ids', () => {
    const body = valid();
    body.pairings[0].extra = 1;
    body.pairings[0].crew[0].rank = 'XX';
    body.pairings[0].duty_periods[0].legs[1].activity_code = 'DEADHEAD';
    body.pairings[0].duty_periods[0].legs[1].to_airport = 'fra';
    body.pairings[0].duty_periods[0].legs[1].dep_time_local = '2026-12-10T12:00:00';
    body.pairings[0].pairing_number = 'P'.repeat(33);
    expect(
      issues(body)
        .map((i) => i.field)
        .sort(),
    ).toEqual([
      '/pairings/0/crew/0/rank',
      '/pairings/0/duty_periods/0/legs/1/activity_code',
      '/pairings/0/duty_periods/0/legs/1/dep_time_local',
      '/pairings/0/duty_periods/0/legs/1/to_airport',
      '/pairings/0/extra',
      '/pairings/0/pairing_number',
    ]);
  });

  it("does not reject impossible data: an arrival before departure is the engine's DATA_QUALITY_FLAG", () => {
    const body = valid();
    body.pairings[0].duty_periods[0].legs[1].arr_time_local = '2026-12-10T01:00:00+01:00';
    expect(issues(body)).toEqual([]);
  });

  it('flags schedule_end_date before schedule_start_date as a cross-field issue', () => {
    expect(
      scheduleSubmissionIssues({ ...valid(), schedule_start_date: '2026-12-10', schedule_end_date: '2026-12-09' }),
    ).toEqual([{ field: '/schedule_end_date', issue: 'must be on or after schedule_start_date' }]);
    expect(
      scheduleSubmissionIssues({ ...valid(), schedule_start_date: '2026-12-10', schedule_end_date: '2026-12-10' }),
    ).toEqual([]);
  });
});

describe('ActionItem schema (spec 2.3)', () => {
  it('accepts a diff-derived item with the extra notes / message / details fields', () => {
    const item = {
      action_id: 'a1',
      schedule_id: 's1',
      source: 'SCHEDULE_DIFF',
      type: 'HOTEL',
      subtype: 'NEW_BOOKING',
      classification: 'NEW_LAYOVER',
      priority: 'P2',
      disposition: 'PENDING_REVIEW',
      auto_eligible: false,
      anchors: { employee_id: 'E1', pairing_number: 'P1', duty_date: '2026-12-10' },
      source_rows: { day1_row: null, day2_row: 3 },
      booking_id: null,
      flight_options_url: null,
      recommended_action: null,
      created_at: '2026-12-01T00:00:00Z',
      notes: null,
      message: 'no hotel configuration exists for station FRA',
      details: { station: 'FRA' },
    };
    expect(checkBody(ActionItem, item).ok).toBe(true);
    expect(checkBody(ActionItem, { ...item, subtype: 'AMEND' }).ok).toBe(false);
  });
});
