import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface WebhookEndpointTable {
  endpoint_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: Generated<boolean>;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  lease_until: Date | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;

export interface WebhookEventTable {
  event_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  links: Json<Record<string, unknown>>;
  urgent: Generated<boolean>;
  created_at: CreatedAt;
}

export interface WebhookAttemptLog {
  at: string;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDeliveryTable {
  delivery_id: Generated<string>;
  seq: Generated<number>;
  endpoint_id: string;
  event_id: string;
  event_seq: number;
  urgent: Generated<boolean>;
  status: ColumnType<'PENDING' | 'SUCCEEDED' | 'FAILED', 'PENDING' | 'SUCCEEDED' | 'FAILED' | undefined>;
  attempts: Generated<number>;
  attempt_log: ColumnType<WebhookAttemptLog[], string | undefined, string>;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  delivered_at: Date | null;
  created_at: CreatedAt;
}
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
