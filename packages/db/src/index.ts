export * from './database';
export * from './connect';
export type * from './tables/tenancy.table';
export type * from './tables/auth.table';
export { sql } from 'kysely';
export * as tenancyRepo from './tenancy.repository';
export * as authRepo from './auth.repository';
export { settingsOf, SETTINGS_COLUMNS } from './tenancy.repository';
