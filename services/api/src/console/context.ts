import type { Redis } from 'ioredis';
import type { Router } from 'express';
import type { ConsoleRole, RouteDoc } from '@crew/contracts';
import type { Db } from '@crew/db';
import { Keyring, TravellerVault, type Config, type Logger } from '@crew/platform';
import type { OutboxRelay } from '@crew/queue';
import type { SupplierRegistry, Suppliers } from '@crew/suppliers';
import { flightOptionsDeps, type FlightOptionsDeps } from '../search/flight-options.service';
import { apiSupplierRegistry } from '../suppliers/supplier-registry';
import { airlineChangesOf, type AirlineChangesOf } from '../action-items/airline-changes';
import { PASSWORD_HASH_COST, type PasswordHashCost } from './secrets';

/** The console's base path: its pages and its cookies live under it. */
export const CONSOLE_BASE = '/console';

/** What every console page and middleware works with. */
export interface ConsoleDeps {
  db: Db;
  config: Config;
  redis: Redis;
  logger: Logger;
  /** The clock of sessions and invitations (tests move it). */
  now: () => Date;
  /** Seals authenticator secrets: the key list of SUPPLIER_CREDENTIALS_KEY. */
  keyring: Keyring;
  /** Live flight options of a deadhead, as GET /crew/flight-options finds them. */
  flightOptions: FlightOptionsDeps;
  /** What a person's action on an action item runs with (the API's own booking operations). */
  relay: OutboxRelay;
  suppliers: Suppliers;
  registry: SupplierRegistry;
  vault: TravellerVault;
  /** Each airline's Duffel changes client: a person accepts an airline's change as the API does. */
  airlineChanges: AirlineChangesOf;
  /** The scrypt cost of new password hashes and of the decoy an unknown e-mail is checked against. */
  passwordHashCost: PasswordHashCost;
}

/** The console's share of the api's dependencies. */
export function consoleDeps(input: {
  db: Db;
  config: Config;
  redis: Redis;
  logger: Logger;
  now?: () => Date;
  suppliers: Suppliers;
  relay: OutboxRelay;
  /** The api's registry of each airline's flight suppliers (default: a registry of its own). */
  registry?: SupplierRegistry;
  /** Default: PASSWORD_HASH_COST. */
  passwordHashCost?: PasswordHashCost;
}): ConsoleDeps {
  const now = input.now ?? (() => new Date());
  const registry = input.registry ?? apiSupplierRegistry(input.db, input.config, input.suppliers);
  return {
    db: input.db,
    config: input.config,
    redis: input.redis,
    logger: input.logger.child({ component: 'console' }),
    now,
    keyring: Keyring.parse(input.config.supplierCredentialsKey),
    flightOptions: flightOptionsDeps(input.db, registry, now),
    relay: input.relay,
    suppliers: input.suppliers,
    registry,
    // Traveller personal fields are sealed with the key list that seals supplier credentials.
    vault: TravellerVault.fromKey(input.config.supplierCredentialsKey),
    airlineChanges: airlineChangesOf(input.db, input.config),
    passwordHashCost: input.passwordHashCost ?? PASSWORD_HASH_COST,
  };
}

/**
 * A group of console pages: its router (full paths under CONSOLE_BASE; each page starts with
 * `requireConsoleUser(role?)` and renders with `consolePage`) and the pages as the OpenAPI document lists them.
 */
export interface ConsolePages {
  routes: readonly RouteDoc[];
  router: (deps: ConsoleDeps) => Router;
}

/** How a console page's answers are documented: HTML for people, or a redirect. */
export const htmlAnswer = (description: string) => ({ description, contentType: 'text/html' });
export const redirectAnswer = (description: string) => ({ description });

/** The signed-in person, as `requireConsoleUser` puts it on `res.locals.consoleUser`. */
export interface ConsoleUser {
  user_id: string;
  airline_id: string;
  email: string;
  role: ConsoleRole;
  totp_enabled: boolean;
}

/** The live session of this request (`res.locals.consoleSession`), whichever page it is. */
export interface ConsoleSession {
  idHash: string;
  csrfToken: string;
  user: ConsoleUser;
  /** The airline requires an authenticator app. */
  requireTotp: boolean;
}
