/** Real IATA airports with a fixed UTC offset (no DST: rosters only need consistency) and position. */
export interface AirportInfo {
  code: string;
  /** Minutes east of UTC. */
  offset: number;
  lat: number;
  lon: number;
}

const a = (code: string, offsetHours: number, lat: number, lon: number): AirportInfo => ({
  code,
  offset: Math.round(offsetHours * 60),
  lat,
  lon,
});

export const AIRPORTS: readonly AirportInfo[] = [
  a('JFK', -5, 40.64, -73.78),
  a('BOS', -5, 42.36, -71.01),
  a('ATL', -5, 33.64, -84.43),
  a('MIA', -5, 25.79, -80.29),
  a('ORD', -6, 41.98, -87.9),
  a('DFW', -6, 32.9, -97.04),
  a('DEN', -7, 39.86, -104.67),
  a('LAX', -8, 33.94, -118.41),
  a('SFO', -8, 37.62, -122.38),
  a('SEA', -8, 47.45, -122.31),
  a('YYZ', -5, 43.68, -79.63),
  a('YVR', -8, 49.19, -123.18),
  a('MEX', -6, 19.44, -99.07),
  a('GRU', -3, -23.43, -46.47),
  a('EZE', -3, -34.82, -58.54),
  a('LHR', 0, 51.47, -0.45),
  a('DUB', 0, 53.42, -6.27),
  a('LIS', 0, 38.77, -9.13),
  a('CDG', 1, 49.01, 2.55),
  a('AMS', 1, 52.31, 4.76),
  a('FRA', 1, 50.03, 8.57),
  a('MUC', 1, 48.35, 11.79),
  a('ZRH', 1, 47.46, 8.55),
  a('MAD', 1, 40.47, -3.56),
  a('FCO', 1, 41.8, 12.25),
  a('CPH', 1, 55.62, 12.66),
  a('HEL', 2, 60.32, 24.96),
  a('ATH', 2, 37.94, 23.94),
  a('CAI', 2, 30.12, 31.41),
  a('JNB', 2, -26.14, 28.24),
  a('IST', 3, 41.26, 28.74),
  a('DOH', 3, 25.27, 51.61),
  a('DXB', 4, 25.25, 55.36),
  a('DEL', 5.5, 28.56, 77.1),
  a('BOM', 5.5, 19.09, 72.87),
  a('KTM', 5.75, 27.7, 85.36),
  a('BKK', 7, 13.69, 100.75),
  a('SIN', 8, 1.36, 103.99),
  a('HKG', 8, 22.31, 113.91),
  a('NRT', 9, 35.77, 140.39),
  a('ICN', 9, 37.46, 126.44),
  a('SYD', 10, -33.95, 151.18),
];

export const AIRPORT_BY_CODE: ReadonlyMap<string, AirportInfo> = new Map(AIRPORTS.map((x) => [x.code, x]));

/** Crew bases: the stations pairings start and end at. */
export const BASES: readonly string[] = ['JFK', 'ORD', 'LAX', 'LHR', 'FRA', 'DXB', 'SIN', 'SYD'];

/** Great-circle distance in km. */
export function distanceKm(x: AirportInfo, y: AirportInfo): number {
  const rad = Math.PI / 180;
  const dLat = (y.lat - x.lat) * rad;
  const dLon = (y.lon - x.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(x.lat * rad) * Math.cos(y.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Block time in minutes for a sector: taxi plus cruise at about 800 km/h, rounded to 5 minutes. */
export function blockMinutes(from: AirportInfo, to: AirportInfo): number {
  return Math.max(45, Math.round((30 + (distanceKm(from, to) / 800) * 60) / 5) * 5);
}

/** The `count` nearest other airports, for short multi-leg duty days. */
export function neighbours(code: string, count: number): string[] {
  const from = AIRPORT_BY_CODE.get(code)!;
  return AIRPORTS.filter((x) => x.code !== code)
    .map((x) => ({ code: x.code, d: distanceKm(from, x) }))
    .sort((p, q) => p.d - q.d || (p.code < q.code ? -1 : 1))
    .slice(0, count)
    .map((x) => x.code);
}
