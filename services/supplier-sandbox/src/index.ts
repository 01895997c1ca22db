export { createSandboxApp, type SandboxApp, type SandboxOptions } from './app';
export { startSandbox, type RunningSandbox, type StartOptions } from './server';
export { Sandbox, type SandboxCoreOptions } from './sandbox';
export { AIRPORTS, COUNTRY_PRICING, findAirport, type AirportInfo } from './airports';
export { HOTELS, findHotel, searchHotels, buildHotelInventory } from './hotels';
export { CARRIERS, FARE_CURRENCY, flightOffersFor, type CarrierInfo } from './flights';
export { OFFER_TTL_MS } from './offers';
export { SandboxErrorCode, MAX_NIGHTS } from './errors';
export * from './schemas';
