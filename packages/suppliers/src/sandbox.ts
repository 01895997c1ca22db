/** The HTTP adapter for the supplier sandbox (docs/supplier-sandbox.md); a real supplier's adapter implements the same ports. */
import { SupplierHttp, type HttpSupplierOptions } from './http';
import type {
  CancelRequest,
  FlightBookingRequest,
  FlightOffer,
  FlightOrder,
  FlightSearchQuery,
  FlightSupplier,
  HotelAmendRequest,
  HotelBookingRequest,
  HotelProperty,
  HotelReservation,
  HotelSearchPage,
  HotelSearchQuery,
  HotelSupplier,
} from './types';

export type SandboxSupplierOptions = HttpSupplierOptions;

export interface Suppliers {
  hotels: HotelSupplier;
  flights: FlightSupplier;
}

/**
 * One path segment. URL parsing resolves `.` and `..` away (percent-encoded too), so such an id (a client's
 * property_id, say) would address another resource: its dots go escaped once more, naming no resource (404).
 */
const seg = (id: string) => (id === '.' || id === '..' ? id.replace(/\./g, '%252E') : encodeURIComponent(id));

class SandboxHotelSupplier implements HotelSupplier {
  constructor(private readonly http: SupplierHttp) {}

  searchHotels(query: HotelSearchQuery): Promise<HotelSearchPage> {
    return this.http.call({ operation: 'hotel.search', method: 'GET', path: '/hotels', query: { ...query } });
  }

  getProperty(propertyId: string): Promise<HotelProperty | null> {
    return this.http.call({ operation: 'hotel.get', method: 'GET', path: `/hotels/${seg(propertyId)}` }, true);
  }

  /** The sandbox confirms at the contracted nightly rate itself: the contract and phone are for suppliers that need them. */
  bookHotel({ contract: _contract, phone_number: _phone, ...request }: HotelBookingRequest): Promise<HotelReservation> {
    return this.http.call({ operation: 'hotel.book', method: 'POST', path: '/hotel-reservations', body: request });
  }

  amendHotel({ supplier_ref, contract: _contract, ...change }: HotelAmendRequest): Promise<HotelReservation> {
    return this.http.call({
      operation: 'hotel.amend',
      method: 'PATCH',
      path: `/hotel-reservations/${seg(supplier_ref)}`,
      body: change,
    });
  }

  cancelHotel({ supplier_ref, reference }: CancelRequest): Promise<HotelReservation> {
    return this.http.call({
      operation: 'hotel.cancel',
      method: 'POST',
      path: `/hotel-reservations/${seg(supplier_ref)}/cancel`,
      body: { reference },
    });
  }

  getReservation(supplierRef: string): Promise<HotelReservation | null> {
    return this.http.call(
      { operation: 'hotel.get_reservation', method: 'GET', path: `/hotel-reservations/${seg(supplierRef)}` },
      true,
    );
  }

  async findReservation(reference: string): Promise<HotelReservation | null> {
    const found = await this.http.call<{ reservations: HotelReservation[] }>({
      operation: 'hotel.find_reservation',
      method: 'GET',
      path: '/hotel-reservations',
      query: { reference },
    });
    return found.reservations[0] ?? null;
  }
}

class SandboxFlightSupplier implements FlightSupplier {
  constructor(private readonly http: SupplierHttp) {}

  getOffer(flightOptionId: string): Promise<FlightOffer | null> {
    return this.http.call(
      { operation: 'flight.get_offer', method: 'GET', path: `/flights/offers/${seg(flightOptionId)}` },
      true,
    );
  }

  async searchFlights(query: FlightSearchQuery): Promise<FlightOffer[]> {
    const found = await this.http.call<{ offers: FlightOffer[] }>({
      operation: 'flight.search',
      method: 'GET',
      path: '/flights/search',
      query: { from: query.from_airport, to: query.to_airport, date: query.date, cabin: query.cabin },
    });
    return found.offers;
  }

  bookFlight(request: FlightBookingRequest): Promise<FlightOrder> {
    // The sandbox takes the name, e-mail and date of birth only (a real supplier's extra profile fields stay home).
    const { email, first_name, last_name, date_of_birth } = request.traveller;
    // Nor does it price at ordering: its own price_change fault answers with the moved fare, judged after.
    const { expected_price: _expected, price_mismatch: _mismatch, fare_ceiling: _ceiling, ...rest } = request;
    const body = { ...rest, traveller: { email, first_name, last_name, date_of_birth } };
    return this.http.call({ operation: 'flight.book', method: 'POST', path: '/flight-orders', body });
  }

  cancelFlight({ supplier_ref, reference }: CancelRequest): Promise<FlightOrder> {
    return this.http.call({
      operation: 'flight.cancel',
      method: 'POST',
      path: `/flight-orders/${seg(supplier_ref)}/cancel`,
      body: { reference },
    });
  }

  getOrder(supplierRef: string): Promise<FlightOrder | null> {
    return this.http.call(
      { operation: 'flight.get_order', method: 'GET', path: `/flight-orders/${seg(supplierRef)}` },
      true,
    );
  }

  async findOrder(reference: string): Promise<FlightOrder | null> {
    const found = await this.http.call<{ orders: FlightOrder[] }>({
      operation: 'flight.find_order',
      method: 'GET',
      path: '/flight-orders',
      query: { reference },
    });
    return found.orders[0] ?? null;
  }
}

/** Hotel and flight suppliers backed by the sandbox (or anything speaking its HTTP API), sharing one connection policy. */
export function createSandboxSuppliers(options: SandboxSupplierOptions): Suppliers {
  const http = new SupplierHttp(options);
  return { hotels: new SandboxHotelSupplier(http), flights: new SandboxFlightSupplier(http) };
}
