/** A PATCH's hotel block may carry num_nights (spec 2.7): it sets the check-out date, or must agree with it. */
import { patchPlan, type PatchedBooking } from '../src';
import { HOTEL } from './lifecycle-fixtures';

const booking: PatchedBooking = {
  type: 'HOTEL',
  status: 'CONFIRMED',
  hotel: { property_id: 'GDS-FRA-1' },
  booked_by: 'old@x',
  station: 'FRA',
  checkin_time_local: '2026-12-10T14:00:00+01:00',
  checkout_time_local: '2026-12-12T10:00:00+01:00',
};

describe('PATCH num_nights', () => {
  test('alone, it counts the nights from the check-in (the booking’s or the body’s)', () => {
    expect(patchPlan(booking, { hotel: { num_nights: 3 } }, 'me@x', HOTEL, null)).toMatchObject({
      kind: 'AMEND',
      changes: { checkout_time_local: '2026-12-13T10:00:00+01:00' },
    });
    expect(
      patchPlan(booking, { hotel: { check_in_date: '2026-12-11', num_nights: 1 } }, 'me@x', HOTEL, null),
    ).toMatchObject({
      kind: 'AMEND',
      changes: { checkin_time_local: '2026-12-11T14:00:00+01:00', checkout_time_local: '2026-12-12T10:00:00+01:00' },
    });
  });

  test('beside the dates it must agree with them, else the field is named', () => {
    expect(
      patchPlan(
        booking,
        { hotel: { check_in_date: '2026-12-10', check_out_date: '2026-12-13', num_nights: 3 } },
        'me@x',
        HOTEL,
        null,
      ),
    ).toMatchObject({ kind: 'AMEND' });
    expect(patchPlan(booking, { hotel: { check_out_date: '2026-12-13', num_nights: 2 } }, 'me@x', HOTEL, null)).toEqual(
      {
        kind: 'INVALID',
        field: '/hotel/num_nights',
        issue: expect.stringContaining('disagrees with the dates'),
      },
    );
  });
});
