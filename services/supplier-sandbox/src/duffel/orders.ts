import type { CreateOrder, Offer, Order } from '@duffel/api/types';

/**
 * The order Duffel makes of an offer for its one passenger, paid from the balance at `created` (no documents
 * yet: the e-ticket is issued later).
 */
export function buildOrder(
  offer: Offer,
  passenger: CreateOrder['passengers'][number],
  metadata: NonNullable<CreateOrder['metadata']>,
  ids: { orderId: string; bookingReference: string },
  created: string,
): Order {
  return {
    id: ids.orderId,
    live_mode: offer.live_mode,
    created_at: created,
    synced_at: created,
    booking_reference: ids.bookingReference,
    total_amount: offer.total_amount,
    total_currency: offer.total_currency,
    base_amount: offer.base_amount,
    base_currency: offer.base_currency,
    tax_amount: offer.tax_amount ?? '0.00',
    tax_currency: offer.tax_currency ?? offer.total_currency,
    owner: offer.owner,
    content: 'managed',
    conditions: offer.conditions,
    metadata,
    slices: offer.slices.map((s) => ({
      id: s.id,
      origin: s.origin,
      origin_type: s.origin_type,
      destination: s.destination,
      destination_type: s.destination_type,
      duration: s.duration,
      fare_brand_name: s.fare_brand_name,
      conditions: { change_before_departure: s.conditions.change_before_departure },
      segments: s.segments.map((seg) => ({
        ...seg,
        origin_terminal: seg.origin_terminal ?? '',
        destination_terminal: seg.destination_terminal ?? '',
        duration: seg.duration ?? '',
        distance: seg.distance ?? '',
        passengers: seg.passengers.map((p) => ({
          passenger_id: p.passenger_id,
          cabin_class: p.cabin_class,
          cabin_class_marketing_name: p.cabin_class_marketing_name,
          baggages: p.baggages,
        })),
      })),
    })),
    passengers: [
      {
        id: passenger.id,
        type: 'adult',
        given_name: passenger.given_name,
        family_name: passenger.family_name,
        born_on: passenger.born_on,
        email: passenger.email,
        phone_number: passenger.phone_number,
        title: passenger.title,
        gender: passenger.gender,
      },
    ],
    services: [],
    documents: [],
    payment_status: { awaiting_payment: false, paid_at: created },
    airline_initiated_changes: [],
    available_actions: ['cancel', 'change', 'update'],
    cancelled_at: null,
    cancellation: null,
  };
}
