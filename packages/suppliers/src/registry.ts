/**
 * Each airline books through its own suppliers, in its own order: the operator setting names them (SANDBOX,
 * DUFFEL, OWN_AIRLINE) and holds the airline's credentials. This resolves an airline id to its ordered
 * adapters, reusing them (and their connections) while the setting is unchanged.
 */
import { createHash } from 'node:crypto';
import { createDuffelClient } from './duffel/client';
import { DuffelFlightSupplier } from './duffel/flights';
import { DuffelHotelSupplier } from './duffel/stays';
import type { Suppliers } from './sandbox';
import type { FlightSupplier, HotelSupplier, SupplierName } from './types';

/** An airline's setting with its secrets opened (the service opens them; this package holds no key). */
export interface AirlineConnections {
  flights: readonly SupplierName[];
  hotels: readonly SupplierName[];
  duffel: { token: string; live_mode: boolean } | null;
  ownAirline: { url: string; carrier: string; signingSecret: string } | null;
}

/** Builds a real supplier's adapter for one airline's connection. */
export interface SupplierFactories {
  sandbox: Suppliers;
  duffelFlights?: (conn: { token: string; live_mode: boolean }) => FlightSupplier;
  duffelHotels?: (conn: { token: string; live_mode: boolean }) => HotelSupplier;
}

export interface OrderedSupplier<T> {
  name: SupplierName;
  live_mode: boolean;
  supplier: T;
}

export interface AirlineSupplierSet {
  /** False: no setting, the sandbox alone (the behaviour before settings existed). */
  configured: boolean;
  /** Flight suppliers that sell offers, in the airline's order (OWN_AIRLINE is not among them: see ownAirline). */
  flights: ReadonlyArray<OrderedSupplier<FlightSupplier>>;
  hotels: ReadonlyArray<OrderedSupplier<HotelSupplier>>;
  /** The airline's own reservation system, when it is in the flight order. */
  ownAirline: { url: string; carrier: string; signingSecret: string } | null;
}

const SANDBOX_ONLY = (sandbox: Suppliers): AirlineSupplierSet => ({
  configured: false,
  flights: [{ name: 'SANDBOX', live_mode: false, supplier: sandbox.flights }],
  hotels: [{ name: 'SANDBOX', live_mode: false, supplier: sandbox.hotels }],
  ownAirline: null,
});

/** The adapter of a named supplier in a set, or null when the set does not hold it. */
export function flightSupplierNamed(
  set: AirlineSupplierSet,
  name: string | null | undefined,
): OrderedSupplier<FlightSupplier> | null {
  return set.flights.find((s) => s.name === (name ?? 'SANDBOX')) ?? null;
}

export function hotelSupplierNamed(
  set: AirlineSupplierSet,
  name: string | null | undefined,
): OrderedSupplier<HotelSupplier> | null {
  return set.hotels.find((s) => s.name === (name ?? 'SANDBOX')) ?? null;
}

export class SupplierRegistry {
  private readonly cache = new Map<string, { at: number; set: Promise<AirlineSupplierSet> }>();
  /** Adapters by supplier and token digest: a token's client (and its connection pool) is built once. */
  private readonly adapters = new Map<string, unknown>();

  constructor(
    private readonly deps: {
      factories: SupplierFactories;
      load: (airlineId: string) => Promise<AirlineConnections | null>;
      /** How long a resolved setting is reused: an operator's change applies within this. */
      ttlMs?: number;
    },
  ) {}

  forAirline(airlineId: string): Promise<AirlineSupplierSet> {
    const t = Date.now();
    const hit = this.cache.get(airlineId);
    if (hit && t - hit.at < (this.deps.ttlMs ?? 5000)) return hit.set;
    const set = this.deps
      .load(airlineId)
      .then((conn) => (conn ? this.build(conn) : SANDBOX_ONLY(this.deps.factories.sandbox)));
    this.cache.set(airlineId, { at: t, set });
    set.catch(() => this.cache.delete(airlineId));
    return set;
  }

  /** Drops what is cached of an airline (its setting just changed in this process). */
  forget(airlineId: string): void {
    this.cache.delete(airlineId);
  }

  private build(conn: AirlineConnections): AirlineSupplierSet {
    const f = this.deps.factories;
    const flights: OrderedSupplier<FlightSupplier>[] = [];
    for (const name of conn.flights) {
      if (name === 'SANDBOX') flights.push({ name, live_mode: false, supplier: f.sandbox.flights });
      if (name === 'DUFFEL' && conn.duffel && f.duffelFlights)
        flights.push({
          name,
          live_mode: conn.duffel.live_mode,
          supplier: this.adapter('duffel-air', conn.duffel, f.duffelFlights),
        });
    }
    const hotels: OrderedSupplier<HotelSupplier>[] = [];
    for (const name of conn.hotels) {
      if (name === 'SANDBOX') hotels.push({ name, live_mode: false, supplier: f.sandbox.hotels });
      if (name === 'DUFFEL' && conn.duffel && f.duffelHotels)
        hotels.push({
          name,
          live_mode: conn.duffel.live_mode,
          supplier: this.adapter('duffel-stays', conn.duffel, f.duffelHotels),
        });
    }
    return {
      configured: true,
      flights,
      hotels,
      ownAirline: conn.flights.includes('OWN_AIRLINE') ? conn.ownAirline : null,
    };
  }

  private adapter<T>(
    kind: string,
    conn: { token: string; live_mode: boolean },
    make: (c: { token: string; live_mode: boolean }) => T,
  ): T {
    const key = `${kind}:${createHash('sha256').update(conn.token).digest('hex')}`;
    let a = this.adapters.get(key) as T | undefined;
    if (!a) {
      a = make(conn);
      this.adapters.set(key, a);
    }
    return a;
  }
}

/** The stored setting as the db holds it (secrets sealed). */
export interface SealedSupplierSetting {
  flights: readonly string[];
  hotels: readonly string[];
  duffel_token_sealed: string | null;
  duffel_live_mode: boolean | null;
  own_airline_url: string | null;
  own_airline_carrier: string | null;
  own_airline_secret_sealed: string | null;
}

/** The setting with its secrets opened by `open` (the keyring, bound to the airline). */
export function connectionsOf(row: SealedSupplierSetting, open: (sealed: string) => string): AirlineConnections {
  return {
    flights: row.flights as SupplierName[],
    hotels: row.hotels as SupplierName[],
    duffel: row.duffel_token_sealed
      ? { token: open(row.duffel_token_sealed), live_mode: row.duffel_live_mode ?? false }
      : null,
    ownAirline:
      row.own_airline_url && row.own_airline_carrier && row.own_airline_secret_sealed
        ? {
            url: row.own_airline_url,
            carrier: row.own_airline_carrier,
            signingSecret: open(row.own_airline_secret_sealed),
          }
        : null,
  };
}

/** The registry as the services build it: the sandbox, the deployment's Duffel, the stored settings opened with the keyring. */
export function createSupplierRegistry(opts: {
  sandbox: Suppliers;
  /** Opens a sealed credential of an airline (the services' Keyring, bound to the airline id). */
  open: (sealed: string, airlineId: string) => string;
  readSetting: (airlineId: string) => Promise<SealedSupplierSetting | undefined>;
  /** The deployment's Duffel (DUFFEL_API_URL) and each call's deadline: an airline's DUFFEL is built over it. */
  duffel?: { basePath: string; flightsTimeoutMs: number; staysTimeoutMs: number };
  duffelFlights?: SupplierFactories['duffelFlights'];
  duffelHotels?: SupplierFactories['duffelHotels'];
  ttlMs?: number;
}): SupplierRegistry {
  const d = opts.duffel;
  const duffelFlights =
    opts.duffelFlights ??
    (d &&
      ((c: { token: string; live_mode: boolean }) =>
        new DuffelFlightSupplier(createDuffelClient({ token: c.token, basePath: d.basePath }), {
          liveMode: c.live_mode,
          timeoutMs: d.flightsTimeoutMs,
        })));
  const duffelHotels =
    opts.duffelHotels ??
    (d &&
      ((c: { token: string; live_mode: boolean }) =>
        new DuffelHotelSupplier(createDuffelClient({ token: c.token, basePath: d.basePath }), {
          liveMode: c.live_mode,
          timeoutMs: d.staysTimeoutMs,
        })));
  return new SupplierRegistry({
    factories: {
      sandbox: opts.sandbox,
      ...(duffelFlights ? { duffelFlights } : {}),
      ...(duffelHotels ? { duffelHotels } : {}),
    },
    load: async (airlineId) => {
      const row = await opts.readSetting(airlineId);
      return row ? connectionsOf(row, (sealed) => opts.open(sealed, airlineId)) : null;
    },
    ...(opts.ttlMs === undefined ? {} : { ttlMs: opts.ttlMs }),
  });
}
