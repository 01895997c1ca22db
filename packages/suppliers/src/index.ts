export * from './types';
export * from './errors';
export { SupplierHttp, type HttpSupplierOptions, type SupplierCall } from './http';
export { createSandboxSuppliers, type SandboxSupplierOptions, type Suppliers } from './sandbox';
export * from './own-airline';
