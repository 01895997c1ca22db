/**
 * The review queue benchmark's data, written by COPY (not through the pipeline): an L airline's open review
 * items across stations, priorities and due_by (each with its booking and traveller), the items of its roster no
 * person needs, and a second airline's queue, so the airline filter has work to do.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DEFAULT_REVIEW_SETTINGS, reviewStateOf } from '@crew/engine';

const STATIONS = [
  'JFK LAX ORD DFW ATL SFO SEA MIA BOS DEN IAH PHX LAS MCO EWR DTW MSP PHL CLT SLC',
  'LHR CDG FRA AMS MAD FCO MUC ZRH DUB LIS CPH OSL ARN HEL VIE BRU ATH IST DXB DOH',
  'DEL BOM SIN HKG NRT ICN PEK SYD MEL AKL GRU EZE SCL BOG LIM MEX YYZ YVR JNB CAI',
].flatMap((line) => line.split(' '));
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** A small, seeded PRNG (mulberry32): the same data every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedPlan {
  airlineId: string;
  scheduleId: string;
  /** OPEN items (PENDING_REVIEW or FAILED) of the airline. */
  open: number;
  /** Items of the roster no person needs (AUTO_BOOKED, no review status). */
  settled: number;
  travellers: number;
  seed: number;
  now: number;
}

export interface Seeded {
  items: number;
  open: number;
  bookings: number;
  travellers: number;
  withoutDueBy: number;
}

const NULL = '\\N';
const text = (v: string | number | boolean | null | undefined): string =>
  v === null || v === undefined ? NULL : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);
const json = (v: unknown): string => JSON.stringify(v);

interface Item {
  line: string;
  booking: string;
  open: boolean;
  dueBy: string | null;
}

/** One item (and its booking's COPY line): a layover or a deadhead of crew member `crew`, event around `now`. */
function item(p: SeedPlan, r: () => number, crew: number, open: boolean): Item {
  const hotel = r() < 0.6;
  const injected = open && r() < 0.01;
  const station = STATIONS[Math.floor(r() * STATIONS.length)]!;
  const to = STATIONS[Math.floor(r() * STATIONS.length)]!;
  const u = r();
  const priority = u < 0.05 ? 'P1' : u < 0.2 ? 'P2' : u < 0.5 ? 'P3' : 'P4';
  // Rostered times are whole minutes: many items share a due_by (the keyset's tie-break on action_id).
  const eventMs = Math.floor((p.now - DAY + r() * 31 * DAY) / MIN) * MIN;
  const createdMs = p.now - Math.floor(r() * 3 * DAY);
  const created = new Date(createdMs).toISOString();
  const event = injected ? null : new Date(eventMs).toISOString();
  const disposition = open ? (r() < 0.85 ? 'PENDING_REVIEW' : 'FAILED') : 'AUTO_BOOKED';
  const recommended = open && !hotel && disposition === 'PENDING_REVIEW' ? 'BOOK_MANUALLY' : null;
  const actionId = randomUUID();
  const bookingId = randomUUID();
  const employee = `E${100000 + crew}`;
  const email = `crew${crew}@bench-l.test`;
  const pairing = `P${10000 + Math.floor(r() * 20000)}`;
  const dutyDate = new Date(eventMs).toISOString().slice(0, 10);
  const review = reviewStateOf(
    {
      type: hotel ? 'HOTEL' : 'FLIGHT',
      subtype: 'NEW_BOOKING',
      classification: hotel ? 'NEW_LAYOVER' : 'NEW_DEADHEAD',
      priority,
      disposition,
      recommended_action: recommended,
      booking_id: bookingId,
      created_at: created,
      disposition_at: created,
      review_status: null,
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      assignee: null,
    },
    event,
    DEFAULT_REVIEW_SETTINGS,
  );
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 19) + '+00:00';
  const details = hotel
    ? {
        row_key: `${employee}|${pairing}|1`,
        duty_period_num: 1,
        station,
        checkin_time_local: local(eventMs),
        checkout_time_local: local(eventMs + 14 * 60 * MIN),
        traveller_email: email,
        name: `Crew Member ${crew}`,
      }
    : {
        row_key: `${employee}|${pairing}|1|2`,
        duty_period_num: 1,
        leg_sequence: 2,
        flight_number: `XY${100 + Math.floor(r() * 900)}`,
        from_airport: station,
        to_airport: to,
        dep_time_local: local(eventMs),
        arr_time_local: local(eventMs + 3 * 60 * MIN),
        scheduled_dep_time_local: local(eventMs),
        scheduled_arr_time_local: local(eventMs + 3 * 60 * MIN),
        traveller_email: email,
        name: `Crew Member ${crew}`,
      };
  const reason = open
    ? disposition === 'FAILED'
      ? 'SUPPLIER_ERROR: the supplier answered 502'
      : hotel
        ? `no hotel configuration exists for station ${station}`
        : 'deadhead auto-booking is off: book manually'
    : null;
  const line = [
    actionId,
    p.airlineId,
    injected ? null : p.scheduleId,
    injected ? `INJECTED:${actionId}` : `${hotel ? 'NEW_LAYOVER' : 'NEW_DEADHEAD'}:${details.row_key}:${crew}`,
    injected ? 'AIRLINE_INJECTED' : 'SCHEDULE_DIFF',
    hotel ? 'HOTEL' : 'FLIGHT',
    'NEW_BOOKING',
    hotel ? 'NEW_LAYOVER' : 'NEW_DEADHEAD',
    priority,
    disposition,
    !open,
    json({ employee_id: employee, pairing_number: pairing, duty_date: dutyDate, traveller_email: email }),
    json({ day1_row: Math.floor(r() * 200000), day2_row: null }),
    bookingId,
    recommended,
    reason ?? `${hotel ? 'layover' : 'deadhead'} booked`,
    event,
    json(details),
    created,
    created,
    review.review_status,
    review.due_by,
  ]
    .map(text)
    .join('\t');
  const status = open ? (disposition === 'FAILED' ? 'FAILED' : 'NEEDS_REVIEW') : 'CONFIRMED';
  const booking = [
    bookingId,
    p.airlineId,
    hotel ? 'HOTEL' : 'FLIGHT',
    status,
    injected ? 'AIRLINE_INJECTED' : 'SCHEDULE_DIFF',
    injected ? null : p.scheduleId,
    actionId,
    employee,
    pairing,
    dutyDate,
    email,
    `Crew Member ${crew}`,
    hotel ? station : null,
    hotel ? details.checkin_time_local : null,
    hotel ? (details as { checkout_time_local: string }).checkout_time_local : null,
    hotel ? null : station,
    hotel ? null : to,
    status === 'NEEDS_REVIEW' ? reason : null,
    status === 'FAILED' ? reason : null,
    status === 'FAILED' ? 3 : 0,
  ]
    .map(text)
    .join('\t');
  return { line, booking, open, dueBy: review.due_by };
}

const ITEM_COLUMNS =
  'action_id, airline_id, schedule_id, item_key, source, type, subtype, classification, priority, disposition, auto_eligible, ' +
  'anchors, source_rows, booking_id, recommended_action, message, event_at, details, created_at, disposition_at, review_status, due_by';
const BOOKING_COLUMNS =
  'booking_id, airline_id, type, status, source, schedule_id, action_id, employee_id, pairing_number, duty_date, traveller_email, ' +
  'traveller_name, station, checkin_time_local, checkout_time_local, from_airport, to_airport, review_reason, last_error, retry_count';

async function copy(client: pg.Client, table: string, columns: string, lines: Iterable<string>): Promise<void> {
  const stream = client.query(copyFrom(`copy ${table} (${columns}) from stdin`));
  function* chunks(): Generator<string> {
    let buf: string[] = [];
    for (const l of lines) {
      buf.push(l);
      if (buf.length === 500) {
        yield `${buf.join('\n')}\n`;
        buf = [];
      }
    }
    if (buf.length) yield `${buf.join('\n')}\n`;
  }
  await pipeline(Readable.from(chunks()), stream);
}

/** Seeds one airline's items, bookings and travellers (its airline and schedule rows exist). */
export async function seedAirline(client: pg.Client, p: SeedPlan): Promise<Seeded> {
  const r = rng(p.seed);
  const items: Item[] = [];
  for (let i = 0; i < p.open + p.settled; i++) items.push(item(p, r, Math.floor(r() * p.travellers), i < p.open));
  await copy(
    client,
    'travellers',
    'airline_id, traveller_email, employee_id, name, has_date_of_birth',
    Array.from({ length: p.travellers }, (_, c) =>
      [p.airlineId, `crew${c}@bench-l.test`, `E${100000 + c}`, `Crew Member ${c}`, 't'].join('\t'),
    ),
  );
  await copy(
    client,
    'bookings',
    BOOKING_COLUMNS,
    items.map((x) => x.booking),
  );
  await copy(
    client,
    'action_items',
    ITEM_COLUMNS,
    items.map((x) => x.line),
  );
  return {
    items: items.length,
    open: p.open,
    bookings: items.length,
    travellers: p.travellers,
    withoutDueBy: items.filter((x) => x.open && x.dueBy === null).length,
  };
}
