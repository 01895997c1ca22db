import { readCallback, readTicket } from '../src/own-airline/wire';

const ticketed = (flight: Record<string, unknown>) => ({
  status: 'TICKETED',
  pnr: 'XX0001',
  ticket_id: '9990000000001',
  flight,
});

describe('readTicket: the flight times the airline gives', () => {
  it('takes ISO 8601 date-times with an offset or Z', () => {
    expect(
      readTicket(
        ticketed({ dep_time: '2025-07-01T09:40:00+02:00', arr_time: '2025-07-01T10:05:00Z', cabin: 'ECONOMY' }),
      ),
    ).toEqual({
      pnr: 'XX0001',
      ticket_id: '9990000000001',
      flight: { dep_time: '2025-07-01T09:40:00+02:00', arr_time: '2025-07-01T10:05:00Z', cabin: 'ECONOMY' },
    });
  });

  it.each([
    ['dep_time', 'tomorrow morning'],
    ['dep_time', '2025-07-01'],
    ['dep_time', '2025-07-01T09:40:00'],
    ['arr_time', '2025-13-01T10:05:00+02:00'],
    ['arr_time', '09:40'],
    ['arr_time', 1751355900],
  ])('refuses a ticket whose %s is %p, naming the field', (field, value) => {
    const answer = readTicket(ticketed({ [field]: value }));
    expect(typeof answer).toBe('string');
    expect(answer).toContain(field);
  });

  it('a ticketed callback with a malformed time is unreadable too', () => {
    const body = {
      type: 'crew_seat.ticketed',
      reference: 'r-1',
      booking_id: 'b-1',
      ...ticketed({ arr_time: 'soon' }),
    };
    expect(readCallback(body)).toEqual(expect.stringContaining('arr_time'));
  });

  it('a blank or absent time is no time (the request’s departure, no arrival)', () => {
    expect(readTicket(ticketed({ dep_time: '', arr_time: '  ' }))).toEqual({
      pnr: 'XX0001',
      ticket_id: '9990000000001',
      flight: {},
    });
  });
});
