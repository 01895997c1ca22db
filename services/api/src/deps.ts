/*
 * What the api app is built from, and where its two route groups are mounted: app.ts mounts the routes there
 * and operability describes them there (its own module, so neither imports the other for it).
 */
import { API_PREFIX } from '@crew/contracts';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Db, PgListener } from '@crew/db';
import type { Config, Logger } from '@crew/platform';
import type { OutboxRelay } from '@crew/queue';
import type { SupplierRegistry, Suppliers } from '@crew/suppliers';
import type { TokenVerifier } from './auth/token-verifier';
import type { PasswordHashCost } from './console/secrets';
import type { DuffelTokenCheck } from './ops/suppliers.routes';
import type { RosterIntake } from './schedules/roster-intake';

// The base path every airline route and link is built on (contracts' API_PREFIX).
export const API_BASE = API_PREFIX;
export const OPS_BASE = '/ops/v1';

export interface ApiDeps {
  config: Config;
  db: Db;
  redis: Redis;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** The global sandbox suppliers: the hotel directory (GET /hotels) and station look-ups; an airline without a supplier order searches flights here too. */
  suppliers: Suppliers;
  /**
   * Each airline's ordered flight suppliers (operator setting): flight searches, offer look-ups and status
   * refreshes. Default: built from the config and the db, over `suppliers`, as the worker builds its own.
   */
  registry?: SupplierRegistry;
  /** Relays the transactional outbox to BullMQ. */
  relay: OutboxRelay;
  /** Checks submitted rosters off the event loop; the owner closes it. */
  rosterIntake: RosterIntake;
  /** Wakes PATCH and DELETE when their booking task settles (LISTEN on BOOKING_SETTLED_CHANNEL); the owner closes it. */
  bookingSettled?: PgListener;
  /** Checks an airline's Duffel token when the operator sets it (one cheap call to Duffel). */
  checkDuffelToken?: DuffelTokenCheck;
  /**
   * The registry /metrics serves, with the process's own metrics on it (ProcessMetrics); the owner closes those.
   * Default: one of the app's own, HTTP and queue metrics only.
   */
  metrics?: Registry;
  /** Today's date for request rules (a flight search for a past date); tests pin it. Default: the system clock. */
  now?: () => Date;
  /**
   * The scrypt cost of the console's password hashes. Default: PASSWORD_HASH_COST (32 MiB, about a tenth of a
   * second); tests that make hundreds of tries pass a cheap one. A stored hash is checked at its own cost.
   */
  passwordHashCost?: PasswordHashCost;
}
