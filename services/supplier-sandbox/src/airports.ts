/**
 * The airports the sandbox's GDS hotel inventory covers: real IATA codes with their city, country, IANA
 * time zone and approximate coordinates (used for flight durations and fares). Flights are offered for any
 * pair of 3-letter codes; an airport outside this table is treated as UTC with a seeded distance.
 */
export interface AirportInfo {
  code: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** IANA time zone. */
  timezone: string;
  lat: number;
  lon: number;
}

type Row = [code: string, city: string, country: string, timezone: string, lat: number, lon: number];

const ROWS: Row[] = [
  // United States and Canada
  ['JFK', 'New York', 'US', 'America/New_York', 40.64, -73.78],
  ['LGA', 'New York', 'US', 'America/New_York', 40.78, -73.87],
  ['EWR', 'Newark', 'US', 'America/New_York', 40.69, -74.17],
  ['BOS', 'Boston', 'US', 'America/New_York', 42.37, -71.01],
  ['PHL', 'Philadelphia', 'US', 'America/New_York', 39.87, -75.24],
  ['IAD', 'Washington', 'US', 'America/New_York', 38.95, -77.46],
  ['DCA', 'Washington', 'US', 'America/New_York', 38.85, -77.04],
  ['BWI', 'Baltimore', 'US', 'America/New_York', 39.18, -76.67],
  ['ATL', 'Atlanta', 'US', 'America/New_York', 33.64, -84.43],
  ['CLT', 'Charlotte', 'US', 'America/New_York', 35.21, -80.94],
  ['MIA', 'Miami', 'US', 'America/New_York', 25.8, -80.29],
  ['FLL', 'Fort Lauderdale', 'US', 'America/New_York', 26.07, -80.15],
  ['MCO', 'Orlando', 'US', 'America/New_York', 28.43, -81.31],
  ['TPA', 'Tampa', 'US', 'America/New_York', 27.98, -82.53],
  ['DTW', 'Detroit', 'US', 'America/Detroit', 42.21, -83.35],
  ['ORD', 'Chicago', 'US', 'America/Chicago', 41.98, -87.9],
  ['MDW', 'Chicago', 'US', 'America/Chicago', 41.79, -87.75],
  ['MSP', 'Minneapolis', 'US', 'America/Chicago', 44.88, -93.22],
  ['STL', 'St. Louis', 'US', 'America/Chicago', 38.75, -90.37],
  ['BNA', 'Nashville', 'US', 'America/Chicago', 36.12, -86.68],
  ['DFW', 'Dallas', 'US', 'America/Chicago', 32.9, -97.04],
  ['IAH', 'Houston', 'US', 'America/Chicago', 29.98, -95.34],
  ['AUS', 'Austin', 'US', 'America/Chicago', 30.19, -97.67],
  ['DEN', 'Denver', 'US', 'America/Denver', 39.86, -104.67],
  ['SLC', 'Salt Lake City', 'US', 'America/Denver', 40.79, -111.98],
  ['PHX', 'Phoenix', 'US', 'America/Phoenix', 33.43, -112.01],
  ['LAS', 'Las Vegas', 'US', 'America/Los_Angeles', 36.08, -115.15],
  ['LAX', 'Los Angeles', 'US', 'America/Los_Angeles', 33.94, -118.41],
  ['SAN', 'San Diego', 'US', 'America/Los_Angeles', 32.73, -117.19],
  ['SFO', 'San Francisco', 'US', 'America/Los_Angeles', 37.62, -122.38],
  ['SEA', 'Seattle', 'US', 'America/Los_Angeles', 47.45, -122.31],
  ['PDX', 'Portland', 'US', 'America/Los_Angeles', 45.59, -122.6],
  ['ANC', 'Anchorage', 'US', 'America/Anchorage', 61.17, -149.99],
  ['HNL', 'Honolulu', 'US', 'Pacific/Honolulu', 21.32, -157.92],
  ['YYZ', 'Toronto', 'CA', 'America/Toronto', 43.68, -79.63],
  ['YUL', 'Montreal', 'CA', 'America/Toronto', 45.47, -73.74],
  ['YYC', 'Calgary', 'CA', 'America/Edmonton', 51.13, -114.01],
  ['YVR', 'Vancouver', 'CA', 'America/Vancouver', 49.19, -123.18],
  // Latin America
  ['MEX', 'Mexico City', 'MX', 'America/Mexico_City', 19.44, -99.07],
  ['CUN', 'Cancun', 'MX', 'America/Cancun', 21.04, -86.87],
  ['PTY', 'Panama City', 'PA', 'America/Panama', 9.07, -79.38],
  ['BOG', 'Bogota', 'CO', 'America/Bogota', 4.7, -74.15],
  ['LIM', 'Lima', 'PE', 'America/Lima', -12.02, -77.11],
  ['GRU', 'Sao Paulo', 'BR', 'America/Sao_Paulo', -23.43, -46.47],
  ['GIG', 'Rio de Janeiro', 'BR', 'America/Sao_Paulo', -22.81, -43.25],
  ['EZE', 'Buenos Aires', 'AR', 'America/Argentina/Buenos_Aires', -34.82, -58.54],
  ['SCL', 'Santiago', 'CL', 'America/Santiago', -33.39, -70.79],
  // Europe
  ['LHR', 'London', 'GB', 'Europe/London', 51.47, -0.45],
  ['LGW', 'London', 'GB', 'Europe/London', 51.15, -0.19],
  ['STN', 'London', 'GB', 'Europe/London', 51.89, 0.24],
  ['MAN', 'Manchester', 'GB', 'Europe/London', 53.35, -2.28],
  ['EDI', 'Edinburgh', 'GB', 'Europe/London', 55.95, -3.37],
  ['DUB', 'Dublin', 'IE', 'Europe/Dublin', 53.42, -6.27],
  ['KEF', 'Reykjavik', 'IS', 'Atlantic/Reykjavik', 63.99, -22.62],
  ['CDG', 'Paris', 'FR', 'Europe/Paris', 49.01, 2.55],
  ['ORY', 'Paris', 'FR', 'Europe/Paris', 48.72, 2.38],
  ['NCE', 'Nice', 'FR', 'Europe/Paris', 43.66, 7.22],
  ['AMS', 'Amsterdam', 'NL', 'Europe/Amsterdam', 52.31, 4.76],
  ['BRU', 'Brussels', 'BE', 'Europe/Brussels', 50.9, 4.48],
  ['FRA', 'Frankfurt', 'DE', 'Europe/Berlin', 50.04, 8.56],
  ['MUC', 'Munich', 'DE', 'Europe/Berlin', 48.35, 11.79],
  ['BER', 'Berlin', 'DE', 'Europe/Berlin', 52.37, 13.5],
  ['HAM', 'Hamburg', 'DE', 'Europe/Berlin', 53.63, 9.99],
  ['DUS', 'Dusseldorf', 'DE', 'Europe/Berlin', 51.29, 6.77],
  ['ZRH', 'Zurich', 'CH', 'Europe/Zurich', 47.46, 8.55],
  ['GVA', 'Geneva', 'CH', 'Europe/Zurich', 46.24, 6.11],
  ['VIE', 'Vienna', 'AT', 'Europe/Vienna', 48.11, 16.57],
  ['MAD', 'Madrid', 'ES', 'Europe/Madrid', 40.49, -3.57],
  ['BCN', 'Barcelona', 'ES', 'Europe/Madrid', 41.3, 2.08],
  ['PMI', 'Palma de Mallorca', 'ES', 'Europe/Madrid', 39.55, 2.74],
  ['AGP', 'Malaga', 'ES', 'Europe/Madrid', 36.67, -4.5],
  ['LIS', 'Lisbon', 'PT', 'Europe/Lisbon', 38.77, -9.13],
  ['OPO', 'Porto', 'PT', 'Europe/Lisbon', 41.24, -8.68],
  ['FCO', 'Rome', 'IT', 'Europe/Rome', 41.8, 12.25],
  ['MXP', 'Milan', 'IT', 'Europe/Rome', 45.63, 8.72],
  ['VCE', 'Venice', 'IT', 'Europe/Rome', 45.51, 12.35],
  ['CPH', 'Copenhagen', 'DK', 'Europe/Copenhagen', 55.62, 12.66],
  ['ARN', 'Stockholm', 'SE', 'Europe/Stockholm', 59.65, 17.92],
  ['OSL', 'Oslo', 'NO', 'Europe/Oslo', 60.19, 11.1],
  ['HEL', 'Helsinki', 'FI', 'Europe/Helsinki', 60.32, 24.96],
  ['WAW', 'Warsaw', 'PL', 'Europe/Warsaw', 52.17, 20.97],
  ['PRG', 'Prague', 'CZ', 'Europe/Prague', 50.1, 14.26],
  ['BUD', 'Budapest', 'HU', 'Europe/Budapest', 47.44, 19.26],
  ['OTP', 'Bucharest', 'RO', 'Europe/Bucharest', 44.57, 26.08],
  ['ATH', 'Athens', 'GR', 'Europe/Athens', 37.94, 23.94],
  ['IST', 'Istanbul', 'TR', 'Europe/Istanbul', 41.26, 28.74],
  ['SAW', 'Istanbul', 'TR', 'Europe/Istanbul', 40.9, 29.31],
  // Middle East and Africa
  ['DXB', 'Dubai', 'AE', 'Asia/Dubai', 25.25, 55.36],
  ['AUH', 'Abu Dhabi', 'AE', 'Asia/Dubai', 24.43, 54.65],
  ['DOH', 'Doha', 'QA', 'Asia/Qatar', 25.27, 51.61],
  ['BAH', 'Manama', 'BH', 'Asia/Bahrain', 26.27, 50.63],
  ['KWI', 'Kuwait City', 'KW', 'Asia/Kuwait', 29.24, 47.97],
  ['MCT', 'Muscat', 'OM', 'Asia/Muscat', 23.59, 58.28],
  ['RUH', 'Riyadh', 'SA', 'Asia/Riyadh', 24.96, 46.7],
  ['JED', 'Jeddah', 'SA', 'Asia/Riyadh', 21.68, 39.16],
  ['AMM', 'Amman', 'JO', 'Asia/Amman', 31.72, 35.99],
  ['TLV', 'Tel Aviv', 'IL', 'Asia/Jerusalem', 32.01, 34.89],
  ['CAI', 'Cairo', 'EG', 'Africa/Cairo', 30.12, 31.41],
  ['CMN', 'Casablanca', 'MA', 'Africa/Casablanca', 33.37, -7.59],
  ['LOS', 'Lagos', 'NG', 'Africa/Lagos', 6.58, 3.32],
  ['ADD', 'Addis Ababa', 'ET', 'Africa/Addis_Ababa', 8.98, 38.8],
  ['NBO', 'Nairobi', 'KE', 'Africa/Nairobi', -1.32, 36.93],
  ['JNB', 'Johannesburg', 'ZA', 'Africa/Johannesburg', -26.14, 28.25],
  ['CPT', 'Cape Town', 'ZA', 'Africa/Johannesburg', -33.97, 18.6],
  // Asia
  ['DEL', 'Delhi', 'IN', 'Asia/Kolkata', 28.56, 77.1],
  ['BOM', 'Mumbai', 'IN', 'Asia/Kolkata', 19.09, 72.87],
  ['BLR', 'Bengaluru', 'IN', 'Asia/Kolkata', 13.2, 77.71],
  ['MAA', 'Chennai', 'IN', 'Asia/Kolkata', 12.99, 80.17],
  ['CMB', 'Colombo', 'LK', 'Asia/Colombo', 7.18, 79.88],
  ['KTM', 'Kathmandu', 'NP', 'Asia/Kathmandu', 27.7, 85.36],
  ['BKK', 'Bangkok', 'TH', 'Asia/Bangkok', 13.69, 100.75],
  ['KUL', 'Kuala Lumpur', 'MY', 'Asia/Kuala_Lumpur', 2.74, 101.7],
  ['SIN', 'Singapore', 'SG', 'Asia/Singapore', 1.36, 103.99],
  ['CGK', 'Jakarta', 'ID', 'Asia/Jakarta', -6.13, 106.66],
  ['DPS', 'Denpasar', 'ID', 'Asia/Makassar', -8.75, 115.17],
  ['SGN', 'Ho Chi Minh City', 'VN', 'Asia/Ho_Chi_Minh', 10.82, 106.65],
  ['HAN', 'Hanoi', 'VN', 'Asia/Ho_Chi_Minh', 21.22, 105.81],
  ['MNL', 'Manila', 'PH', 'Asia/Manila', 14.51, 121.02],
  ['HKG', 'Hong Kong', 'HK', 'Asia/Hong_Kong', 22.31, 113.92],
  ['TPE', 'Taipei', 'TW', 'Asia/Taipei', 25.08, 121.23],
  ['CAN', 'Guangzhou', 'CN', 'Asia/Shanghai', 23.39, 113.3],
  ['SZX', 'Shenzhen', 'CN', 'Asia/Shanghai', 22.64, 113.81],
  ['PVG', 'Shanghai', 'CN', 'Asia/Shanghai', 31.14, 121.81],
  ['SHA', 'Shanghai', 'CN', 'Asia/Shanghai', 31.2, 121.34],
  ['PEK', 'Beijing', 'CN', 'Asia/Shanghai', 40.08, 116.58],
  ['PKX', 'Beijing', 'CN', 'Asia/Shanghai', 39.51, 116.41],
  ['ICN', 'Seoul', 'KR', 'Asia/Seoul', 37.46, 126.44],
  ['GMP', 'Seoul', 'KR', 'Asia/Seoul', 37.56, 126.8],
  ['NRT', 'Tokyo', 'JP', 'Asia/Tokyo', 35.77, 140.39],
  ['HND', 'Tokyo', 'JP', 'Asia/Tokyo', 35.55, 139.78],
  ['KIX', 'Osaka', 'JP', 'Asia/Tokyo', 34.43, 135.24],
  // Oceania
  ['SYD', 'Sydney', 'AU', 'Australia/Sydney', -33.95, 151.18],
  ['MEL', 'Melbourne', 'AU', 'Australia/Melbourne', -37.67, 144.84],
  ['BNE', 'Brisbane', 'AU', 'Australia/Brisbane', -27.38, 153.12],
  ['PER', 'Perth', 'AU', 'Australia/Perth', -31.94, 115.97],
  ['AKL', 'Auckland', 'NZ', 'Pacific/Auckland', -37.01, 174.79],
];

export const AIRPORTS: readonly AirportInfo[] = Object.freeze(
  ROWS.map(([code, city, country, timezone, lat, lon]) => Object.freeze({ code, city, country, timezone, lat, lon })),
);

const BY_CODE = new Map(AIRPORTS.map((a) => [a.code, a]));

export function findAirport(code: string): AirportInfo | undefined {
  return BY_CODE.get(code);
}

/** Time zone of an airport code; codes outside the table are treated as UTC. */
export function airportTimeZone(code: string): string {
  return BY_CODE.get(code)?.timezone ?? 'UTC';
}

/** Great-circle distance in km, or undefined when either airport is outside the table. */
export function distanceKm(from: string, to: string): number | undefined {
  const a = BY_CODE.get(from);
  const b = BY_CODE.get(to);
  if (!a || !b) return undefined;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/**
 * Local currency and hotel price level per country. `perUsd` converts the USD price level into the
 * local currency; the figures are round approximations, fixed so rates never move between runs.
 */
export interface CountryPricing {
  currency: string;
  perUsd: number;
  /** Typical nightly rate of a mid-range airport hotel, in USD. */
  nightlyUsd: number;
}

const EUR = 0.92;
export const COUNTRY_PRICING: Readonly<Record<string, CountryPricing>> = Object.freeze({
  US: { currency: 'USD', perUsd: 1, nightlyUsd: 185 },
  CA: { currency: 'CAD', perUsd: 1.36, nightlyUsd: 160 },
  MX: { currency: 'MXN', perUsd: 17, nightlyUsd: 110 },
  PA: { currency: 'USD', perUsd: 1, nightlyUsd: 120 },
  CO: { currency: 'COP', perUsd: 4000, nightlyUsd: 95 },
  PE: { currency: 'PEN', perUsd: 3.75, nightlyUsd: 100 },
  BR: { currency: 'BRL', perUsd: 5, nightlyUsd: 105 },
  AR: { currency: 'ARS', perUsd: 900, nightlyUsd: 100 },
  CL: { currency: 'CLP', perUsd: 950, nightlyUsd: 110 },
  GB: { currency: 'GBP', perUsd: 0.79, nightlyUsd: 175 },
  IE: { currency: 'EUR', perUsd: EUR, nightlyUsd: 170 },
  IS: { currency: 'ISK', perUsd: 138, nightlyUsd: 190 },
  FR: { currency: 'EUR', perUsd: EUR, nightlyUsd: 160 },
  NL: { currency: 'EUR', perUsd: EUR, nightlyUsd: 165 },
  BE: { currency: 'EUR', perUsd: EUR, nightlyUsd: 140 },
  DE: { currency: 'EUR', perUsd: EUR, nightlyUsd: 140 },
  CH: { currency: 'CHF', perUsd: 0.88, nightlyUsd: 230 },
  AT: { currency: 'EUR', perUsd: EUR, nightlyUsd: 135 },
  ES: { currency: 'EUR', perUsd: EUR, nightlyUsd: 130 },
  PT: { currency: 'EUR', perUsd: EUR, nightlyUsd: 120 },
  IT: { currency: 'EUR', perUsd: EUR, nightlyUsd: 145 },
  DK: { currency: 'DKK', perUsd: 6.9, nightlyUsd: 170 },
  SE: { currency: 'SEK', perUsd: 10.5, nightlyUsd: 150 },
  NO: { currency: 'NOK', perUsd: 10.7, nightlyUsd: 165 },
  FI: { currency: 'EUR', perUsd: EUR, nightlyUsd: 140 },
  PL: { currency: 'PLN', perUsd: 4, nightlyUsd: 95 },
  CZ: { currency: 'CZK', perUsd: 23, nightlyUsd: 100 },
  HU: { currency: 'HUF', perUsd: 360, nightlyUsd: 90 },
  RO: { currency: 'RON', perUsd: 4.6, nightlyUsd: 85 },
  GR: { currency: 'EUR', perUsd: EUR, nightlyUsd: 120 },
  TR: { currency: 'TRY', perUsd: 32, nightlyUsd: 110 },
  AE: { currency: 'AED', perUsd: 3.67, nightlyUsd: 170 },
  QA: { currency: 'QAR', perUsd: 3.64, nightlyUsd: 160 },
  BH: { currency: 'BHD', perUsd: 0.376, nightlyUsd: 140 },
  KW: { currency: 'KWD', perUsd: 0.307, nightlyUsd: 150 },
  OM: { currency: 'OMR', perUsd: 0.385, nightlyUsd: 130 },
  SA: { currency: 'SAR', perUsd: 3.75, nightlyUsd: 150 },
  JO: { currency: 'JOD', perUsd: 0.71, nightlyUsd: 110 },
  IL: { currency: 'ILS', perUsd: 3.7, nightlyUsd: 200 },
  EG: { currency: 'EGP', perUsd: 48, nightlyUsd: 90 },
  MA: { currency: 'MAD', perUsd: 10, nightlyUsd: 95 },
  NG: { currency: 'NGN', perUsd: 1500, nightlyUsd: 120 },
  ET: { currency: 'ETB', perUsd: 57, nightlyUsd: 100 },
  KE: { currency: 'KES', perUsd: 130, nightlyUsd: 110 },
  ZA: { currency: 'ZAR', perUsd: 18.5, nightlyUsd: 95 },
  IN: { currency: 'INR', perUsd: 83, nightlyUsd: 90 },
  LK: { currency: 'LKR', perUsd: 300, nightlyUsd: 80 },
  NP: { currency: 'NPR', perUsd: 133, nightlyUsd: 70 },
  TH: { currency: 'THB', perUsd: 36, nightlyUsd: 85 },
  MY: { currency: 'MYR', perUsd: 4.7, nightlyUsd: 80 },
  SG: { currency: 'SGD', perUsd: 1.35, nightlyUsd: 190 },
  ID: { currency: 'IDR', perUsd: 15700, nightlyUsd: 75 },
  VN: { currency: 'VND', perUsd: 25000, nightlyUsd: 70 },
  PH: { currency: 'PHP', perUsd: 56, nightlyUsd: 85 },
  HK: { currency: 'HKD', perUsd: 7.8, nightlyUsd: 180 },
  TW: { currency: 'TWD', perUsd: 32, nightlyUsd: 120 },
  CN: { currency: 'CNY', perUsd: 7.2, nightlyUsd: 105 },
  KR: { currency: 'KRW', perUsd: 1350, nightlyUsd: 140 },
  JP: { currency: 'JPY', perUsd: 150, nightlyUsd: 150 },
  AU: { currency: 'AUD', perUsd: 1.52, nightlyUsd: 165 },
  NZ: { currency: 'NZD', perUsd: 1.65, nightlyUsd: 150 },
});

export function countryPricing(country: string): CountryPricing {
  const pricing = COUNTRY_PRICING[country];
  // A missing row is a bug in the tables above, caught by the inventory test.
  if (!pricing) throw new Error(`no pricing for country ${country}`);
  return pricing;
}
