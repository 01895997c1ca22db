export * from './config';
export {
  EnvSchema,
  ENV_VARIABLES,
  REQUIRED_IN_PRODUCTION,
  configFieldOf,
  type ConfigEnv,
  type EnvVariable,
} from './env-schema';
export * from './load-config';
export * from './logger';
export * from './errors';
export * from './route';
export * from './http';
export * from './shutdown';
export * from './credentials';
export * from './cursor';
export * from './threads';
export * from './keyring';
export * from './traveller-vault';
export * from './prng';
export * from './booking-context';
export * from './csv-cell';
