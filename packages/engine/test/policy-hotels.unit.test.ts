/** The auto-booking policy for hotels: check-in/check-out policy (rule 8) and contract coverage (DESIGN 4). */
import type { HotelTerms } from '../src/hotel-config';
import { contractedRate, decide, noHotelConfiguration, stayDeviation, stayNights } from '../src/policy';
import {
  eur,
  period,
  STD,
  GUAR,
  FLEX,
  contract,
  stationHotel,
  ctx,
  at,
  newLayover,
  modifyLayover,
  expectReview,
  expectAuto,
  NO_CONFIG_FRA,
} from './policy-fixtures';

// ---------------------------------------------------------------- decide: hotel policies

describe('decide: hotel check-in/check-out policy (rule 8 deviations)', () => {
  const withTerms = (terms: HotelTerms) => ctx({ hotel: stationHotel({ terms }) });
  const stay = (checkin: string, checkout: string) =>
    newLayover({ checkin_time_local: checkin, checkout_time_local: checkout });

  it('STANDARD: a check-in before the standard time beyond the buffer is review (early check-in)', () => {
    // 15:00 - 30 min buffer = 14:30; 14:29 is early.
    expectReview(
      decide(stay(at('2026-12-10', '14:29'), at('2026-12-11', '09:00')), withTerms(STD)),
      /early check-in at 14:29.*STANDARD/,
    );
  });

  it('STANDARD: a check-in early by no more than the buffer is auto-booked', () => {
    expectAuto(decide(stay(at('2026-12-10', '14:30'), at('2026-12-11', '09:00')), withTerms(STD)), 'AUTO_BOOK');
  });

  it('STANDARD without buffer_minutes: any minute early is review', () => {
    const { buffer_minutes: _drop, ...noBuffer } = STD;
    expectReview(
      decide(stay(at('2026-12-10', '14:59'), at('2026-12-11', '09:00')), withTerms(noBuffer)),
      /early check-in/,
    );
    expectAuto(decide(stay(at('2026-12-10', '15:00'), at('2026-12-11', '09:00')), withTerms(noBuffer)), 'AUTO_BOOK');
  });

  it('STANDARD: a check-out after the standard time beyond the buffer is review (late check-out); within the buffer is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '11:31')), withTerms(STD)),
      /late check-out at 11:31/,
    );
    expectAuto(decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '11:30')), withTerms(STD)), 'AUTO_BOOK');
  });

  it('GUARANTEED: a check-in before the guaranteed early check-in time is review; at it is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '05:59'), at('2026-12-11', '09:00')), withTerms(GUAR)),
      /early check-in at 05:59.*GUARANTEED/,
    );
    expectAuto(decide(stay(at('2026-12-10', '06:00'), at('2026-12-11', '09:00')), withTerms(GUAR)), 'AUTO_BOOK');
  });

  it('GUARANTEED: a check-out after the guaranteed late check-out time is review; at it is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '18:01')), withTerms(GUAR)),
      /late check-out at 18:01.*GUARANTEED/,
    );
    expectAuto(decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '18:00')), withTerms(GUAR)), 'AUTO_BOOK');
  });

  it('GUARANTEED uses the guaranteed times, not standard ones also present on the hotel', () => {
    const terms: HotelTerms = { ...GUAR, standard_check_in_time: '15:00', standard_check_out_time: '11:00' };
    expectAuto(decide(stay(at('2026-12-10', '07:00'), at('2026-12-11', '17:00')), withTerms(terms)), 'AUTO_BOOK');
  });

  it('GUARANTEED: buffer_minutes widens both times', () => {
    const terms: HotelTerms = { ...GUAR, buffer_minutes: 15 };
    expectAuto(decide(stay(at('2026-12-10', '05:45'), at('2026-12-11', '18:15')), withTerms(terms)), 'AUTO_BOOK');
    expectReview(decide(stay(at('2026-12-10', '05:44'), at('2026-12-11', '09:00')), withTerms(terms)), /early/);
  });

  it('FLEXIBLE: any arrival time is accepted', () => {
    expectAuto(decide(stay(at('2026-12-10', '00:30'), at('2026-12-11', '00:30')), withTerms(FLEX)), 'AUTO_BOOK');
  });

  it('FLEXIBLE: a stay up to its nights plus flex_window_minutes is auto; one minute more is review (overrun)', () => {
    // One night: 24 h + 120 min allowed. 08:00 -> 10:00 next day is exactly 26 h.
    expectAuto(decide(stay(at('2026-12-10', '08:00'), at('2026-12-11', '10:00')), withTerms(FLEX)), 'AUTO_BOOK');
    expectReview(
      decide(stay(at('2026-12-10', '08:00'), at('2026-12-11', '10:01')), withTerms(FLEX)),
      "the stay overruns the hotel's flexible window by 1 minutes",
    );
  });

  it('FLEXIBLE: the window scales with the number of nights and adds the buffer', () => {
    const terms: HotelTerms = { ...FLEX, buffer_minutes: 10 };
    expectAuto(decide(stay(at('2026-12-10', '08:00'), at('2026-12-12', '10:10')), withTerms(terms)), 'AUTO_BOOK');
    expectReview(decide(stay(at('2026-12-10', '08:00'), at('2026-12-12', '10:11')), withTerms(terms)), /overruns/);
  });

  it('a deviation is also checked on an amendment', () => {
    expectReview(decide(modifyLayover({ checkin_time_local: at('2026-12-10', '10:00') }), ctx()), /early check-in/);
  });
});

describe('stayDeviation', () => {
  it('compares the local wall-clock time as written, whatever the offset', () => {
    expect(stayDeviation(STD, '2026-12-10T14:30:00-05:00', '2026-12-11T11:30:00-05:00')).toBeNull();
    expect(stayDeviation(STD, '2026-12-10T14:29:00+09:00', '2026-12-11T09:00:00+09:00')).toMatch(/early/);
  });

  it('FLEXIBLE measures the real elapsed time between the two instants', () => {
    // Same wall-clock span, but the check-out offset is an hour earlier: the stay is one hour longer.
    expect(stayDeviation(FLEX, '2026-12-10T08:00:00+01:00', '2026-12-11T10:00:00+01:00')).toBeNull();
    expect(stayDeviation(FLEX, '2026-12-10T08:00:00+01:00', '2026-12-11T10:00:00+00:00')).toMatch(/by 60 minutes/);
  });
});

// ---------------------------------------------------------------- decide: contract coverage

describe('decide: hotel contract coverage (DESIGN 4; spec 1 operator table "Hotel contract and contracted rates")', () => {
  const twoNights = newLayover({
    checkin_time_local: at('2026-12-10', '16:00'),
    checkout_time_local: at('2026-12-12', '09:00'),
  });

  it('no hotel configured at the station: review with `no hotel configuration exists for station XXX`', () => {
    const d = decide(newLayover(), ctx({ hotel: null }));
    expectReview(d, NO_CONFIG_FRA);
    expect(noHotelConfiguration('MAD')).toBe('no hotel configuration exists for station MAD');
  });

  it('a hotel at another station does not serve this one', () => {
    expectReview(decide(newLayover({ station: 'MUC' }), ctx()), 'no hotel configuration exists for station MUC');
  });

  it('a hotel with no contract: review with the no-configuration message', () => {
    expectReview(decide(newLayover(), ctx({ hotel: stationHotel({ contracts: [] }) })), NO_CONFIG_FRA);
  });

  it('contract with automated booking disabled: review with the no-configuration message', () => {
    expectReview(
      decide(
        newLayover(),
        ctx({ hotel: stationHotel({ contracts: [contract({ automated_booking_enabled: false })] }) }),
      ),
      NO_CONFIG_FRA,
    );
  });

  it('contract not covering a night of the stay: review', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_to: '2026-12-10', rate_periods: [period('2026-12-01', '2026-12-10', 120)] })],
    });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('contract starting after the first night: review', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_from: '2026-12-11', rate_periods: [period('2026-12-11', '2026-12-31', 120)] })],
    });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('the check-out day is not a night: a contract ending on the last night covers the stay', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_to: '2026-12-11', rate_periods: [period('2026-12-01', '2026-12-11', 120)] })],
    });
    expectAuto(decide(twoNights, ctx({ hotel })), 'AUTO_BOOK');
  });

  it('no rate period for a night of the stay: review', () => {
    const hotel = stationHotel({ contracts: [contract({ rate_periods: [period('2026-12-01', '2026-12-10', 120)] })] });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('a contract without any rate period: review', () => {
    expectReview(
      decide(newLayover(), ctx({ hotel: stationHotel({ contracts: [contract({ rate_periods: [] })] }) })),
      NO_CONFIG_FRA,
    );
  });

  it('rate periods together covering every night: booked at the rate of the first night', () => {
    const hotel = stationHotel({
      contracts: [
        contract({ rate_periods: [period('2026-12-01', '2026-12-10', 110), period('2026-12-11', '2026-12-31', 150)] }),
      ],
    });
    const d = decide(twoNights, ctx({ hotel }));
    expectAuto(d, 'AUTO_BOOK');
    expect(d.hotel?.rate).toEqual(eur(110));
  });

  it('a disabled contract is skipped in favour of an enabled one that covers the stay', () => {
    const hotel = stationHotel({
      contracts: [
        contract({ contract_id: 1, automated_booking_enabled: false }),
        contract({ contract_id: 2, rate_periods: [period('2026-12-01', '2026-12-31', 99)] }),
      ],
    });
    const d = decide(newLayover(), ctx({ hotel }));
    expectAuto(d, 'AUTO_BOOK');
    expect(d.hotel).toMatchObject({ contract_id: 2, rate: eur(99) });
  });

  it('the AUTO_BOOK decision names the hotel, its channel and the contract', () => {
    const hotel = stationHotel({ handler_type: 'DIRECT', property_id: 'AIRLINE-1', name: null });
    expect(decide(newLayover(), ctx({ hotel })).hotel).toEqual({
      hotel_config_id: 7,
      property_id: 'AIRLINE-1',
      handler_type: 'DIRECT',
      name: null,
      contract_id: 10,
      rate: eur(120),
    });
  });

  it('pinned property that is not the station hotel: review with the no-configuration message', () => {
    expectReview(decide(newLayover({ property_id: 'OTHER-PROP' }), ctx()), NO_CONFIG_FRA);
    expectReview(decide(modifyLayover({ property_id: 'OTHER-PROP' }), ctx()), NO_CONFIG_FRA);
  });

  it('pinned property that is the station hotel: auto-booked', () => {
    expectAuto(decide(newLayover({ property_id: 'GDS-FRA-1' }), ctx()), 'AUTO_BOOK');
  });

  it('contract coverage is checked on an amendment too', () => {
    expectReview(
      decide(
        modifyLayover(),
        ctx({ hotel: stationHotel({ contracts: [contract({ automated_booking_enabled: false })] }) }),
      ),
      NO_CONFIG_FRA,
    );
  });
});

describe('contractedRate and stayNights', () => {
  it('stayNights: check-in date up to the day before check-out', () => {
    expect(stayNights(at('2026-12-10', '16:00'), at('2026-12-11', '09:00'))).toEqual(['2026-12-10']);
    expect(stayNights(at('2026-12-30', '16:00'), at('2027-01-02', '09:00'))).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
    ]);
  });

  it('stayNights: a same-day stay counts as one night', () => {
    expect(stayNights(at('2026-12-10', '08:00'), at('2026-12-10', '20:00'))).toEqual(['2026-12-10']);
  });

  it('contractedRate: the first night rate of the first enabled contract covering every night, or null', () => {
    const h = stationHotel({
      contracts: [
        contract({ rate_periods: [period('2026-12-01', '2026-12-10', 110), period('2026-12-11', '2026-12-31', 150)] }),
      ],
    });
    expect(contractedRate(h, at('2026-12-11', '16:00'), at('2026-12-13', '09:00'))).toEqual({
      contract: h.contracts[0],
      rate: eur(150),
    });
    expect(contractedRate(h, at('2026-12-31', '16:00'), at('2027-01-02', '09:00'))).toBeNull();
  });
});
