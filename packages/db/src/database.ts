import type { Kysely, Transaction } from 'kysely';
import type { AirlineTable, CompanyConfigTable, TravellerTable, UserTable } from './tables/tenancy.table';
import type { OAuthClientTable, RefreshTokenTable, SigningKeyTable } from './tables/auth.table';

/** Every table the services read or write. */
export interface Database {
  airlines: AirlineTable;
  users: UserTable;
  travellers: TravellerTable;
  company_configs: CompanyConfigTable;
  oauth_clients: OAuthClientTable;
  refresh_tokens: RefreshTokenTable;
  signing_keys: SigningKeyTable;
}

export type Db = Kysely<Database>;
/** What a repository function takes: the database or an open transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
