export * from './types';
export * from './errors';
export { SupplierHttp, type HttpSupplierOptions, type SupplierCall } from './http';
export { createSandboxSuppliers, type SandboxSupplierOptions, type Suppliers } from './sandbox';
export {
  SupplierRegistry,
  createSupplierRegistry,
  flightSupplierNamed,
  connectionsOf,
  hotelSupplierNamed,
  type AirlineConnections,
  type AirlineSupplierSet,
  type OrderedSupplier,
  type SupplierFactories,
  type SealedSupplierSetting,
} from './registry';
export { searchInOrder, offerInOrder, type FoundOffers } from './in-order';
export * from './own-airline';
export { DuffelFlightSupplier, type DuffelFlightOptions } from './duffel/flights';
export {
  createDuffelClient,
  duffelCall,
  checkDuffelToken,
  isLiveToken,
  redactTokens,
  rateLimitPauseMs,
  toSupplierError,
  type DuffelClientOptions,
  type DuffelCallOptions,
} from './duffel/client';
export {
  DuffelChanges,
  DUFFEL_SIGNATURE_HEADER,
  DUFFEL_WEBHOOK_EVENTS,
  duffelCallbackUrl,
  registerDuffelWebhook,
  deleteDuffelWebhook,
  duffelSignatureHeader,
  parseDuffelEvent,
  toAirlineChange,
  verifyDuffelSignature,
  type DuffelAirlineChange,
  type DuffelChangedFlight,
  type DuffelWebhookEvent,
} from './duffel/changes';
export { DuffelHotelSupplier, type DuffelHotelOptions } from './duffel/stays';
export { chooseRate } from './duffel/stays-rates';
