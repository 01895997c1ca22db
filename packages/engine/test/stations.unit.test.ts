import fc from 'fast-check';
import { cityNamesStation, isStationCode, resolveCityStation } from '../src/stations';

describe('hotel.city of a request (spec 2.7)', () => {
  it('a station code is taken as it is', () => {
    expect(resolveCityStation('JFK', [], [])).toEqual({ ok: true, station: 'JFK' });
  });

  it('a city name with one airport resolves to it', () => {
    expect(resolveCityStation('Newark', ['EWR', 'EWR'], [])).toEqual({ ok: true, station: 'EWR' });
  });

  it('a city name with several airports resolves to the airline’s one configured base there', () => {
    expect(resolveCityStation('New York', ['JFK', 'LGA'], ['LHR', 'LGA'])).toEqual({ ok: true, station: 'LGA' });
  });

  it('ambiguous without exactly one configured base: the issue names every candidate', () => {
    for (const bases of [[], ['JFK', 'LGA']]) {
      const r = resolveCityStation('New York', ['LGA', 'JFK'], bases);
      expect(r).toEqual({ ok: false, issue: '"New York" matches several stations (JFK, LGA); give the station code' });
    }
  });

  it('an unknown city name is refused', () => {
    expect(resolveCityStation('Atlantis', [], ['JFK'])).toMatchObject({
      ok: false,
      issue: expect.stringContaining('Atlantis'),
    });
  });

  it('consistency of city and a pinned property’s station', () => {
    expect(cityNamesStation('JFK', 'JFK', [])).toBe(true);
    expect(cityNamesStation('LHR', 'JFK', [])).toBe(false);
    expect(cityNamesStation('new york', 'JFK', ['JFK', 'LGA'])).toBe(true);
    expect(cityNamesStation('London', 'JFK', ['LHR', 'LGW'])).toBe(false);
  });

  it('property: a resolved station is always one of the candidates (or the code itself)', () => {
    const code = fc.stringMatching(/^[A-Z]{3}$/);
    fc.assert(
      fc.property(
        fc.string({ minLength: 2, maxLength: 12 }),
        fc.array(code, { maxLength: 4 }),
        fc.array(code, { maxLength: 4 }),
        (city, stations, bases) => {
          const r = resolveCityStation(city, stations, bases);
          if (!r.ok) return true;
          return isStationCode(city) ? r.station === city : stations.includes(r.station);
        },
      ),
    );
  });
});
