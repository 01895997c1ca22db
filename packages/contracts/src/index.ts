export * from './validation';
export * from './common';
export * from './errors';
export * from './auth';
export * from './ops';
export * from './config';
export * from './search';
export * from './schedules';
