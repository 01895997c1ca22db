export * from './types';
export * from './errors';
export { SupplierHttp, type HttpSupplierOptions, type SupplierCall } from './http';
export { createSandboxSuppliers, type SandboxSupplierOptions, type Suppliers } from './sandbox';
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
