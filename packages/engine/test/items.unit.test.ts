import { flightSearchOfItem, itemMessage } from '../src';

describe('the flight search an action item pre-fills (GET /crew/flight-options?action_id=)', () => {
  const anchors = { employee_id: 'E1', pairing_number: 'P1', duty_date: '2027-03-02' };
  const details = { row_key: 'r', from_airport: 'LHR', to_airport: 'CDG', flight_number: 'BA304' };

  it("is a deadhead item's airports on its duty date", () => {
    expect(flightSearchOfItem({ type: 'FLIGHT', details, anchors })).toEqual({
      from_airport: 'LHR',
      to_airport: 'CDG',
      date: '2027-03-02',
    });
  });

  it("is an injected or requested deadhead's flight block: its airports on its departure date", () => {
    const flight = {
      from_airport: 'LHR',
      to_airport: 'JFK',
      depart_date: '2027-03-04',
      arrive_by: '2027-03-04T20:00:00Z',
    };
    expect(flightSearchOfItem({ type: 'FLIGHT', details: { flight }, anchors })).toEqual({
      from_airport: 'LHR',
      to_airport: 'JFK',
      date: '2027-03-04',
    });
    // A block without its date searches on the item's duty date.
    const undated = { from_airport: 'LHR', to_airport: 'JFK' };
    expect(flightSearchOfItem({ type: 'FLIGHT', details: { flight: undated }, anchors })).toMatchObject({
      date: '2027-03-02',
    });
    expect(flightSearchOfItem({ type: 'FLIGHT', details: { flight: { to_airport: 'JFK' } }, anchors })).toBeNull();
  });

  it('is nothing for a hotel item', () => {
    expect(flightSearchOfItem({ type: 'HOTEL', details: { ...details, station: 'LHR' }, anchors })).toBeNull();
  });

  it('is nothing for a flight item missing an airport or its duty date', () => {
    expect(flightSearchOfItem({ type: 'FLIGHT', details: { ...details, to_airport: undefined }, anchors })).toBeNull();
    expect(flightSearchOfItem({ type: 'FLIGHT', details: { ...details, from_airport: '' }, anchors })).toBeNull();
    expect(flightSearchOfItem({ type: 'FLIGHT', details: {}, anchors })).toBeNull();
    expect(flightSearchOfItem({ type: 'FLIGHT', details, anchors: { ...anchors, duty_date: undefined } })).toBeNull();
    expect(flightSearchOfItem({ type: 'FLIGHT', details: null, anchors: null })).toBeNull();
  });
});

describe('the message an action item is written with', () => {
  it("is the reason a person must act, when the policy gives one, else the diff's own message", () => {
    expect(itemMessage({ reason: 'No contracted hotel at JFK' }, { message: 'New layover at JFK' })).toBe(
      'No contracted hotel at JFK',
    );
    expect(itemMessage({ reason: null }, { message: 'New layover at JFK' })).toBe('New layover at JFK');
  });
});
