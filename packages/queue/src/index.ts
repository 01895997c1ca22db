export * from './connection';
