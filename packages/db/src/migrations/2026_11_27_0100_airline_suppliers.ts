import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Each airline's supplier order (flights, hotels) and its supplier connections. Credentials are stored sealed
// (AES-256-GCM under SUPPLIER_CREDENTIALS_KEY, the airline id as associated data); no row means the sandbox only.
// Bookings record the supplier that holds them and whether it was live.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table if not exists airline_suppliers (
      airline_id uuid primary key references airlines (airline_id) on delete cascade,
      flights text[] not null,
      hotels text[] not null,
      duffel_token_sealed text,
      duffel_live_mode boolean,
      duffel_webhook_id text,
      duffel_webhook_secret_sealed text,
      own_airline_url text,
      own_airline_carrier text,
      own_airline_secret_sealed text,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists airline_suppliers`.execute(db);
}
