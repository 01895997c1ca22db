import {
  acceptedChangeFlight,
  acceptedFlightBlock,
  decideAirlineChange,
  type AirlineChangeFacts,
  type ChangedBookingFacts,
  type ChangedFlight,
} from '../src';

// The leg as rostered: LHR 09:00Z to JFK 12:00-05:00 (17:00Z); its window is three hours either side.
const booking = (over: Partial<ChangedBookingFacts> = {}): ChangedBookingFacts => ({
  status: 'CONFIRMED',
  from_airport: 'LHR',
  to_airport: 'JFK',
  dep_time_local: '2027-03-10T09:00:00+00:00',
  arr_time_local: '2027-03-10T12:00:00-05:00',
  flight: { constraints: null },
  ...over,
});

const flight = (over: Partial<ChangedFlight> = {}): ChangedFlight => ({
  airline_code: 'BA',
  flight_number: 'BA117',
  from_airport: 'LHR',
  to_airport: 'JFK',
  dep_time: '2027-03-10T10:00:00+00:00',
  arr_time: '2027-03-10T13:00:00-05:00',
  ...over,
});

const change = (added: ChangedFlight[], over: Partial<AirlineChangeFacts> = {}): AirlineChangeFacts => ({
  id: 'aic_1',
  added,
  available_actions: ['accept', 'cancel', 'change'],
  action_taken: null,
  ...over,
});

describe('decideAirlineChange', () => {
  test('a retime that still arrives within the window is accepted with the new flight', () => {
    const f = flight({ flight_number: 'BA119' });
    expect(decideAirlineChange(booking(), change([f]))).toEqual({ kind: 'ACCEPT', flight: f });
  });

  test('arriving exactly at the latest arrival is on time; a minute later is not', () => {
    expect(decideAirlineChange(booking(), change([flight({ arr_time: '2027-03-10T20:00:00+00:00' })])).kind).toBe(
      'ACCEPT',
    );
    const late = decideAirlineChange(booking(), change([flight({ arr_time: '2027-03-10T20:01:00+00:00' })]));
    expect(late).toMatchObject({ kind: 'REVIEW', recommended_action: 'BOOK_MANUALLY' });
  });

  test("the airline's own arrive_by is the bound when the booking was made with one", () => {
    const b = booking({ flight: { constraints: { arrive_by: '2027-03-10T17:30:00+00:00' } } });
    expect(decideAirlineChange(b, change([flight({ arr_time: '2027-03-10T17:30:00+00:00' })])).kind).toBe('ACCEPT');
    expect(decideAirlineChange(b, change([flight({ arr_time: '2027-03-10T18:00:00+00:00' })]))).toMatchObject({
      kind: 'REVIEW',
      reason: expect.stringContaining('after the latest arrival'),
    });
  });

  test('a departure before the leg window goes to review', () => {
    expect(decideAirlineChange(booking(), change([flight({ dep_time: '2027-03-10T05:00:00+00:00' })]))).toMatchObject({
      kind: 'REVIEW',
      recommended_action: 'BOOK_MANUALLY',
    });
  });

  test('another origin or destination goes to review, whatever the times', () => {
    expect(decideAirlineChange(booking(), change([flight({ to_airport: 'EWR' })]))).toMatchObject({
      kind: 'REVIEW',
      reason: expect.stringContaining('LHR-EWR'),
    });
    expect(decideAirlineChange(booking(), change([flight({ from_airport: 'LGW' })]))).toMatchObject({
      kind: 'REVIEW',
      recommended_action: 'BOOK_MANUALLY',
    });
  });

  test('a flight removed without replacement goes to review for a manual booking', () => {
    expect(decideAirlineChange(booking(), change([]))).toMatchObject({
      kind: 'REVIEW',
      recommended_action: 'BOOK_MANUALLY',
    });
  });

  test('an on-time connection, or a change the supplier will not let us accept, is a person’s call to accept', () => {
    const legs = [
      flight({ to_airport: 'BOS', arr_time: '2027-03-10T11:00:00-05:00' }),
      flight({ flight_number: 'BA2', from_airport: 'BOS', dep_time: '2027-03-10T12:00:00-05:00' }),
    ];
    expect(decideAirlineChange(booking(), change(legs))).toMatchObject({
      kind: 'REVIEW',
      recommended_action: 'ACCEPT_CHANGE',
    });
    expect(decideAirlineChange(booking(), change([flight()], { available_actions: ['cancel'] }))).toMatchObject({
      kind: 'REVIEW',
      recommended_action: 'ACCEPT_CHANGE',
    });
  });

  test('a change already acted on, or a booking that holds no ticket, is left alone', () => {
    expect(decideAirlineChange(booking(), change([flight()], { action_taken: 'accepted' })).kind).toBe('IGNORE');
    for (const status of ['CANCELLED', 'NEEDS_REVIEW', 'PENDING', 'FAILED'] as const)
      expect(decideAirlineChange(booking({ status }), change([flight()])).kind).toBe('IGNORE');
  });

  test('a MODIFIED booking is handled like a CONFIRMED one', () => {
    expect(decideAirlineChange(booking({ status: 'MODIFIED' }), change([flight()])).kind).toBe('ACCEPT');
  });
});

describe('acceptedFlightBlock', () => {
  test('takes the new flight, keeps the rest of the block and closes the open change', () => {
    const block = { supplier: 'DUFFEL', supplier_ref: 'ord_1', flight_number: 'BA117', airline_change_id: 'aic_0' };
    expect(acceptedFlightBlock(block, flight({ flight_number: 'BA119' }))).toMatchObject({
      supplier: 'DUFFEL',
      supplier_ref: 'ord_1',
      flight_number: 'BA119',
      airline_change_id: null,
    });
  });
});

describe('acceptedChangeFlight (a person accepts the change from the review queue)', () => {
  test('one flight is taken as it is', () => {
    expect(acceptedChangeFlight([flight({ flight_number: 'BA119' })])).toEqual(flight({ flight_number: 'BA119' }));
  });

  test('a connection is held as one journey: the first flight’s number, first origin and departure, last destination and arrival', () => {
    const legs = [
      flight({ flight_number: 'BA100', to_airport: 'BOS', arr_time: '2027-03-10T11:00:00-05:00' }),
      flight({
        flight_number: 'BA200',
        from_airport: 'BOS',
        dep_time: '2027-03-10T12:00:00-05:00',
        arr_time: '2027-03-10T13:30:00-05:00',
      }),
    ];
    expect(acceptedChangeFlight(legs)).toEqual({
      airline_code: 'BA',
      flight_number: 'BA100',
      from_airport: 'LHR',
      to_airport: 'JFK',
      dep_time: '2027-03-10T10:00:00+00:00',
      arr_time: '2027-03-10T13:30:00-05:00',
    });
  });

  test('a change that removes the flight without a replacement has nothing to accept', () => {
    expect(acceptedChangeFlight([])).toBeNull();
  });
});
