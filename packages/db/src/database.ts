import type { Kysely, Transaction } from 'kysely';
import type {
  AirlineTable,
  CompanyConfigTable,
  TravellerAuditTable,
  TravellerTable,
  UserTable,
} from './tables/tenancy.table';
import type { OAuthClientTable, RefreshTokenTable, SigningKeyTable } from './tables/auth.table';
import type {
  ConfigVersionTable,
  FlightConfigSnapshot,
  FlightRulesTable,
  HotelChangeRequestTable,
  HotelConfigTable,
  HotelContractTable,
} from './tables/config.table';
import type { HotelConfig } from '@crew/contracts';
import type {
  ActionItemTable,
  AuditEventTable,
  OutboxTable,
  RosterStateTable,
  SchedulePayloadTable,
  ScheduleTable,
} from './tables/schedule.table';
import type { FxRateTable } from './tables/fx.table';
import type { WebhookDeliveryTable, WebhookEndpointTable, WebhookEventTable } from './tables/webhook.table';
import type { CoverageAtRiskTable, RosteredDeadheadTable, RosteredLayoverTable } from './tables/coverage.table';
import type { BookingEventTable, BookingTable, IdempotencyKeyTable, RetryJobTable } from './tables/booking.table';
import type { RoomingListTable, RoomingRowTable } from './tables/rooming.table';
import type { AirlineSuppliersTable } from './tables/supplier.table';
import type {
  ConsoleInvitationTable,
  ConsoleSessionTable,
  ConsoleSettingsTable,
  ConsoleUserTable,
} from './console/console.table';

/** Every table the services read or write. */
export interface Database {
  airlines: AirlineTable;
  users: UserTable;
  travellers: TravellerTable;
  traveller_audit: TravellerAuditTable;
  company_configs: CompanyConfigTable;
  oauth_clients: OAuthClientTable;
  refresh_tokens: RefreshTokenTable;
  signing_keys: SigningKeyTable;
  hotel_configs: HotelConfigTable;
  hotel_config_versions: ConfigVersionTable<HotelConfig>;
  flight_config_versions: ConfigVersionTable<FlightConfigSnapshot>;
  flight_rules: FlightRulesTable;
  hotel_contracts: HotelContractTable;
  hotel_change_requests: HotelChangeRequestTable;
  schedules: ScheduleTable;
  schedule_payloads: SchedulePayloadTable;
  roster_states: RosterStateTable;
  bookings: BookingTable;
  booking_events: BookingEventTable;
  action_items: ActionItemTable;
  audit_events: AuditEventTable;
  outbox: OutboxTable;
  idempotency_keys: IdempotencyKeyTable;
  retry_jobs: RetryJobTable;
  fx_rates: FxRateTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  rooming_lists: RoomingListTable;
  rooming_rows: RoomingRowTable;
  rostered_layovers: RosteredLayoverTable;
  rostered_deadheads: RosteredDeadheadTable;
  coverage_at_risk: CoverageAtRiskTable;
  airline_suppliers: AirlineSuppliersTable;
  console_users: ConsoleUserTable;
  console_invitations: ConsoleInvitationTable;
  console_sessions: ConsoleSessionTable;
  console_settings: ConsoleSettingsTable;
}

export type Db = Kysely<Database>;
/** What a repository function takes: the database or an open transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
