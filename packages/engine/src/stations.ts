/**
 * Where an airline's hotel request is (spec 2.7 `hotel.city`): a station code, or a city name as the hotel
 * directory spells it. A name can cover several airports (New York: JFK, LGA); the airline's configured base
 * in that city decides, else the request is ambiguous.
 */

export type StationResolution = { ok: true; station: string } | { ok: false; issue: string };

/** An all-capital three-letter value is a station (IATA airport) code; anything else is a city name. */
export function isStationCode(city: string): boolean {
  return /^[A-Z]{3}$/.test(city);
}

/**
 * @param cityStations the airports the hotel directory lists under exactly this city name (case-insensitive)
 * @param configuredBases the airline's hotel-config base stations
 */
export function resolveCityStation(
  city: string,
  cityStations: readonly string[],
  configuredBases: readonly string[],
): StationResolution {
  if (isStationCode(city)) return { ok: true, station: city };
  const candidates = [...new Set(cityStations)].sort();
  if (candidates.length === 1) return { ok: true, station: candidates[0]! };
  if (candidates.length === 0)
    return {
      ok: false,
      issue: `no airport of the hotel directory is in a city named "${city}"; give the station code`,
    };
  const bases = candidates.filter((s) => configuredBases.includes(s));
  if (bases.length === 1) return { ok: true, station: bases[0]! };
  return { ok: false, issue: `"${city}" matches several stations (${candidates.join(', ')}); give the station code` };
}

/** Whether `city` (code or name) names the station a pinned property is at. */
export function cityNamesStation(city: string, station: string, cityStations: readonly string[]): boolean {
  return isStationCode(city) ? city === station : cityStations.includes(station);
}
