export * from './validation';
export * from './common';
export * from './errors';
export * from './schedules';
