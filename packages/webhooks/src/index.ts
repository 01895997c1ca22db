export * from './secrets';
export * from './targets';
