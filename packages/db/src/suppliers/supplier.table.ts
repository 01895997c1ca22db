import type { ColumnType } from 'kysely';

/** An airline's supplier order and connections; secrets only sealed (Keyring, owner = airline id). */
export interface AirlineSuppliersTable {
  airline_id: string;
  /** Priority order of SANDBOX, DUFFEL, OWN_AIRLINE. */
  flights: string[];
  /** Priority order of SANDBOX, DUFFEL. */
  hotels: string[];
  duffel_token_sealed: string | null;
  duffel_live_mode: boolean | null;
  duffel_webhook_id: string | null;
  duffel_webhook_secret_sealed: string | null;
  own_airline_url: string | null;
  own_airline_carrier: string | null;
  own_airline_secret_sealed: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** An order a supplier announced (Duffel's order.created), by the reference we put in its metadata when known. */
export interface SupplierOrderSightingTable {
  airline_id: string;
  supplier: string;
  supplier_ref: string;
  reference: string | null;
  event_id: string;
  seen_at: ColumnType<Date, Date | undefined, never>;
}
