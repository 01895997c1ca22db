/** @crew/roster-generator: deterministic, realistic rosters for tests and benchmarks. */
export { generateRoster, pairingNumber, ROSTER_SIZES, type GenerateOptions, type RosterSize } from './generate';
export {
  mutateRoster,
  mutateRosterWithLog,
  MUTATIONS,
  type Mutation,
  type MutateOptions,
  type MutationLog,
} from './mutate';
export { Rng } from '@crew/platform';
export { AIRPORTS, BASES, type AirportInfo } from './airports';
