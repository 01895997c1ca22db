import type { DeadheadRow, LayoverRef, PairingSummary, RosterState } from './types';

/*
 * Rows of a roster state as arrays in a fixed column order, not objects that repeat every field name:
 * an L roster's state is ~33 MB of JSON as objects, two thirds of it field names. A state is now stored a line
 * per pairing_number of such tuples (state-lines); the forms stored before, one JSON document of tuples (this
 * file's StoredRosterState) or of objects, still read (state-lines storedStateOfText).
 */

/** The stored form's version: a state without it is the object form written before. */
export const STORED_STATE_VERSION = 2;

export type DeadheadTuple = [
  employee_id: string,
  traveller_email: string,
  name: string,
  rank: DeadheadRow['rank'],
  home_base: string,
  row: number,
  key: string,
  pairing_number: string,
  duty_period_num: number,
  duty_date: string,
  leg_sequence: number,
  from_airport: string,
  to_airport: string,
  flight_number: string | null,
  dep_time_local: string,
  arr_time_local: string,
  scheduled_dep_time_local: string,
  scheduled_arr_time_local: string,
];
export type LayoverTuple = [key: string, row: number, date: string];
export type PairingTuple = [
  pairing_number: string,
  signature: string,
  crew: string[],
  first_date: string,
  last_date: string,
  first_row: number,
  last_row: number,
];

/** A roster state as stored: its rows as tuples. */
export interface StoredRosterState {
  v: typeof STORED_STATE_VERSION;
  deadheads: DeadheadTuple[];
  layovers: LayoverTuple[];
  pairings: PairingTuple[];
}

/** What a stored state's JSON may hold: this form, or the object form of states stored before it. */
export type RosterStateAsStored = StoredRosterState | RosterState;

export const deadheadTuple = (d: DeadheadRow): DeadheadTuple => [
  d.employee_id,
  d.traveller_email,
  d.name,
  d.rank,
  d.home_base,
  d.row,
  d.key,
  d.pairing_number,
  d.duty_period_num,
  d.duty_date,
  d.leg_sequence,
  d.from_airport,
  d.to_airport,
  d.flight_number,
  d.dep_time_local,
  d.arr_time_local,
  d.scheduled_dep_time_local,
  d.scheduled_arr_time_local,
];
export const layoverTuple = (l: LayoverRef): LayoverTuple => [l.key, l.row, l.date];
export const pairingTuple = (p: PairingSummary): PairingTuple => [
  p.pairing_number,
  p.signature,
  p.crew,
  p.first_date,
  p.last_date,
  p.first_row,
  p.last_row,
];

/** The form stored before state-lines (tests make states of it, to show that they still read). */
export function storedRosterState(state: RosterState): StoredRosterState {
  return {
    v: STORED_STATE_VERSION,
    deadheads: state.deadheads.map(deadheadTuple),
    layovers: state.layovers.map(layoverTuple),
    pairings: state.pairings.map(pairingTuple),
  };
}

function isStored(state: RosterStateAsStored): state is StoredRosterState {
  return (state as Partial<StoredRosterState>).v === STORED_STATE_VERSION;
}

/** The rows stored tuples hold, each row number shifted by `shift` (state-lines stores some relative to a first row). */
export const deadheadOf = (d: DeadheadTuple, shift = 0): DeadheadRow => ({
  employee_id: d[0],
  traveller_email: d[1],
  name: d[2],
  rank: d[3],
  home_base: d[4],
  row: d[5] + shift,
  key: d[6],
  pairing_number: d[7],
  duty_period_num: d[8],
  duty_date: d[9],
  leg_sequence: d[10],
  from_airport: d[11],
  to_airport: d[12],
  flight_number: d[13],
  dep_time_local: d[14],
  arr_time_local: d[15],
  scheduled_dep_time_local: d[16],
  scheduled_arr_time_local: d[17],
});
export const layoverOf = (l: LayoverTuple, shift = 0): LayoverRef => ({ key: l[0], row: l[1] + shift, date: l[2] });
export const pairingOf = (p: PairingTuple, shift = 0): PairingSummary => ({
  pairing_number: p[0],
  signature: p[1],
  crew: p[2],
  first_date: p[3],
  last_date: p[4],
  first_row: p[5] + shift,
  last_row: p[6] + shift,
});

/** The roster state a stored one holds, in either form. */
export function rosterStateOf(stored: RosterStateAsStored): RosterState {
  if (!isStored(stored)) return stored;
  return {
    deadheads: stored.deadheads.map((d) => deadheadOf(d)),
    layovers: stored.layovers.map((l) => layoverOf(l)),
    pairings: stored.pairings.map((p) => pairingOf(p)),
  };
}
