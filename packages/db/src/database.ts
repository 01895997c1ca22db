import type { Kysely, Transaction } from 'kysely';
import type { AirlineTable, UserTable } from './tenancy/tenancy.table';
import type { TravellerAuditTable, TravellerTable } from './travellers/traveller.table';
import type { OAuthClientTable, RefreshTokenTable, SigningKeyTable } from './auth/auth.table';
import type {
  CompanyConfigTable,
  ConfigVersionTable,
  FlightConfigSnapshot,
  FlightRulesTable,
  HotelChangeRequestTable,
  HotelConfigTable,
  HotelContractTable,
  ReviewSettingsTable,
  CostSettingsTable,
} from './config/config.table';
import type { HotelConfig } from '@crew/contracts';
import type {
  ActionItemTable,
  AuditEventTable,
  RosterStateTable,
  SchedulePayloadTable,
  ScheduleTable,
} from './schedules/schedule.table';
import type { FxRateTable } from './fx/fx.table';
import type { OutboxTable } from './webhooks/outbox.table';
import type { WebhookDeliveryTable, WebhookEndpointTable, WebhookEventTable } from './webhooks/webhook.table';
import type { CoverageAtRiskTable, RosteredDeadheadTable, RosteredLayoverTable } from './coverage/coverage.table';
import type {
  BookingEventTable,
  BookingTable,
  HotelMovedStayTable,
  IdempotencyKeyTable,
  RetryJobTable,
} from './bookings/booking.table';
import type { RoomingListTable, RoomingRowTable } from './rooming/rooming.table';
import type { AirlineSuppliersTable, SupplierOrderSightingTable } from './suppliers/supplier.table';
import type { InvoiceLineTable, InvoicePayloadTable, InvoiceTable } from './invoices/invoice.table';
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
  review_settings: ReviewSettingsTable;
  cost_settings: CostSettingsTable;
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
  hotel_moved_stays: HotelMovedStayTable;
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
  supplier_order_sightings: SupplierOrderSightingTable;
  console_users: ConsoleUserTable;
  console_invitations: ConsoleInvitationTable;
  console_sessions: ConsoleSessionTable;
  console_settings: ConsoleSettingsTable;
  invoices: InvoiceTable;
  invoice_payloads: InvoicePayloadTable;
  invoice_lines: InvoiceLineTable;
}

export type Db = Kysely<Database>;
/** What a repository function takes: the database or an open transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
