import type { ScheduleSubmission } from '@crew/contracts';

/** One pairing, one crew member: day 1 a DH leg LHR→JFK and a JFK layover, day 2 a FLT leg back. */
export function onePairingRoster(
  opts: { pairing?: string; employee?: string; email?: string; day1?: string; legSequence?: number } = {},
): ScheduleSubmission {
  const day1 = opts.day1 ?? '2027-03-10';
  const day2 = addDays(day1, 1);
  return {
    external_ref: 'roster-1',
    schedule_start_date: day1,
    schedule_end_date: addDays(day1, 6),
    pairings: [
      {
        pairing_number: opts.pairing ?? 'P100',
        origin_base: 'LHR',
        terminus_base: 'LHR',
        check_in_local: `${day1}T08:00:00+00:00`,
        check_out_local: `${day2}T20:00:00+00:00`,
        tafb_hours: 36,
        crew: [
          {
            employee_id: opts.employee ?? 'E1',
            name: 'Ada Lovelace',
            rank: 'CA',
            home_base: 'LHR',
            traveller_email: opts.email ?? 'ada@crew.test',
          },
        ],
        duty_periods: [
          {
            duty_period_num: 1,
            duty_date: day1,
            fdp_start_local: `${day1}T08:00:00+00:00`,
            fdp_end_local: `${day1}T13:00:00-05:00`,
            legs: [
              {
                leg_sequence: opts.legSequence ?? 1,
                activity_code: 'DH',
                flight_number: 'BA117',
                from_airport: 'LHR',
                to_airport: 'JFK',
                dep_time_local: `${day1}T09:00:00+00:00`,
                arr_time_local: `${day1}T12:00:00-05:00`,
                expected_dep_time_local: `${day1}T09:00:00+00:00`,
                expected_arr_time_local: `${day1}T12:00:00-05:00`,
                booking_required: true,
              },
            ],
            layover: {
              station: 'JFK',
              booking_required: true,
              checkin_time_local: `${day1}T15:00:00-05:00`,
              checkout_time_local: `${day2}T09:00:00-05:00`,
            },
          },
          {
            duty_period_num: 2,
            duty_date: day2,
            fdp_start_local: `${day2}T10:00:00-05:00`,
            fdp_end_local: `${day2}T20:00:00+00:00`,
            legs: [
              {
                leg_sequence: 1,
                activity_code: 'FLT',
                flight_number: 'TA200',
                from_airport: 'JFK',
                to_airport: 'LHR',
                dep_time_local: `${day2}T11:00:00-05:00`,
                arr_time_local: `${day2}T20:00:00+00:00`,
              },
            ],
          },
        ],
      },
    ],
  };
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
