export * from './attempt-errors';
export * from './secrets';
export * from './targets';
