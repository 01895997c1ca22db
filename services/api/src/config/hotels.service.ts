import type { HotelConfig, HotelConfigBody } from '@crew/contracts';
import { configRepo, type Db, type HotelConfigRow } from '@crew/db';
import { planHotelConfig, type PropertyLookup } from '@crew/engine';
import { ErrorCode } from '@crew/contracts';
import { ApiError } from '@crew/platform';
import { isSupplierError, type HotelSupplier, type Suppliers } from '@crew/suppliers';

/** Looks property ids up in the GDS inventory (a read-only supplier call), the airline's own Duffel Stays included. */
export type PropertyDirectory = (propertyIds: string[], airlineId?: string) => Promise<PropertyLookup>;

/** The airline's Duffel Stays, when its hotel suppliers include DUFFEL (null otherwise). */
export type AirlineStays = (airlineId: string) => Promise<HotelSupplier | null>;

/**
 * The GDS inventory behind the hotel supplier; an unreachable supplier is a 503, never a wrong channel. An
 * accommodation id (`acc_…`) is looked up in the airline's own Duffel account: found there, the hotel is GDS
 * for that airline (booked through Stays), whatever the sandbox knows.
 */
export function supplierDirectory(suppliers: Suppliers, staysOf?: AirlineStays): PropertyDirectory {
  return async (ids, airlineId) => {
    try {
      const stays = staysOf && airlineId && ids.some((id) => id.startsWith('acc_')) ? await staysOf(airlineId) : null;
      const found = await Promise.all(
        ids.map(
          async (id) =>
            [id, await (stays && id.startsWith('acc_') ? stays : suppliers.hotels).getProperty(id)] as const,
        ),
      );
      return new Map(found.map(([id, p]) => [id, p ? { name: p.name } : null]));
    } catch (err) {
      if (isSupplierError(err))
        throw new ApiError(
          503,
          ErrorCode.SERVICE_UNAVAILABLE,
          'The hotel inventory cannot be reached right now; retry shortly',
        );
      throw err;
    }
  };
}

/** A hotel's IANA time zone as the inventory knows it (null: not in the inventory, or it names none). */
export type PropertyTimeZone = (propertyId: string, airlineId: string) => Promise<string | null>;

/** The inventory's zone of a property (a read-only supplier call); an unreachable supplier is a 503. */
export function propertyTimeZone(suppliers: Suppliers, staysOf?: AirlineStays): PropertyTimeZone {
  const directory = async (id: string, airlineId: string) => {
    const stays = staysOf && id.startsWith('acc_') ? await staysOf(airlineId) : null;
    return (stays ?? suppliers.hotels).getProperty(id);
  };
  return async (id, airlineId) => {
    try {
      return (await directory(id, airlineId))?.timezone || null;
    } catch (err) {
      if (isSupplierError(err))
        throw ApiError.unavailable('The hotel inventory cannot be reached right now; retry shortly');
      throw err;
    }
  };
}

type CurrentHotel = Awaited<ReturnType<typeof configRepo.currentHotels>>[number];

function hotelView(h: CurrentHotel | (HotelConfigRow & { automated_booking_enabled: boolean })) {
  return {
    hotel_config_id: h.hotel_config_id,
    property_id: h.property_id,
    name: h.name,
    ...h.terms,
    rate_periods: h.legacy_rate_periods,
    reservations_email: h.reservations_email,
    handler_type: h.handler_type,
    automated_booking_enabled: h.automated_booking_enabled,
  };
}

/** The airline's hotel config as GET answers it: current hotels, live automation flags, latest version. */
export async function currentHotelConfig(db: Db, airlineId: string): Promise<HotelConfig> {
  const [hotels, latest] = await Promise.all([
    configRepo.currentHotels(db, airlineId),
    configRepo.latestVersion(db, 'hotel_config_versions', airlineId),
  ]);
  return {
    bases: hotels.map((h) => ({ base_station: h.base_station, hotels: [hotelView(h)] })),
    version: latest ? `v${latest.version}` : null,
    active: latest !== undefined,
    updated_at: latest ? latest.created_at.toISOString() : null,
  };
}

/** Full replacement (spec 4.3): plan with the pure rules, then apply and archive the result as a new version. */
export async function replaceHotelConfig(
  db: Db,
  directory: PropertyDirectory,
  airlineId: string,
  body: HotelConfigBody,
): Promise<HotelConfig> {
  const ids = [...new Set(body.bases.flatMap((b) => b.hotels.map((h) => h.property_id)))];
  // The inventory lookup happens before the transaction: no supplier call holds a lock.
  const lookup = await directory(ids, airlineId);
  return db.transaction().execute(async (trx) => {
    await configRepo.lockAirline(trx, airlineId);
    const existing = await configRepo.currentHotels(trx, airlineId);
    const plan = planHotelConfig(existing, body.bases, lookup);
    if (!plan.ok)
      throw new ApiError(plan.refusal.status, plan.refusal.code, plan.refusal.message, plan.refusal.details);
    await configRepo.retireHotelsExcept(trx, airlineId, plan.hotels);
    for (const h of plan.hotels) {
      await configRepo.upsertHotel(trx, airlineId, { ...h, clearLegacyRates: h.legacy_rates === 'clear' });
    }
    const latest = await configRepo.latestVersion(trx, 'hotel_config_versions', airlineId);
    const version = (latest?.version ?? 0) + 1;
    const hotels = await configRepo.currentHotels(trx, airlineId);
    const snapshot: HotelConfig = {
      bases: hotels.map((h) => ({ base_station: h.base_station, hotels: [hotelView(h)] })),
      version: `v${version}`,
      active: true,
      updated_at: null,
    };
    // A version's updated_at is the time its row was written; it is filled in when read.
    const createdAt = await configRepo.insertHotelVersion(trx, airlineId, version, snapshot);
    return { ...snapshot, updated_at: createdAt.toISOString() };
  });
}
