import type { CrewMember, Rank } from '@crew/contracts';
import type { Rng } from '@crew/platform';
import { BASES } from './airports';

const FIRST = [
  'Ana',
  'Ben',
  'Chloe',
  'David',
  'Elif',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kavya',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wei',
  'Ximena',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Okafor',
  'Schmidt',
  'Tanaka',
  'Garcia',
  'Novak',
  'Haddad',
  'Smith',
  'Kowalski',
  'Silva',
  'Nguyen',
  'Muller',
  'Rossi',
  'Dubois',
  'Larsen',
  'Kim',
  'Patel',
  'Cohen',
  'Ivanova',
  'Murphy',
  'Jensen',
];

const RANK_WEIGHTS: readonly [Rank, number][] = [
  ['CA', 20],
  ['FO', 20],
  ['FA', 50],
  ['PU', 7],
  ['SO', 3],
];

/** A deterministic pool of crew members spread over the bases. */
export function buildCrewPool(rng: Rng, size: number): CrewMember[] {
  const pool: CrewMember[] = [];
  for (let i = 0; i < size; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const id = String(100000 + i);
    pool.push({
      employee_id: `E${id}`,
      name: `${first} ${last}`,
      rank: rng.weighted(
        RANK_WEIGHTS.map(([r]) => r),
        RANK_WEIGHTS.map(([, w]) => w),
      ),
      home_base: BASES[i % BASES.length]!,
      traveller_email: `${first}.${last}.${id}@crew.example.com`.toLowerCase(),
      ...(rng.chance(0.8) ? { union_code: rng.pick(['ALPA', 'AFA', 'BALPA', 'VC']) } : {}),
    });
  }
  return pool;
}

/** Draws a pairing's crew: a captain, a first officer, then cabin crew, from the pairing's base when possible. */
export class CrewPicker {
  private readonly byBase = new Map<string, CrewMember[]>();
  private readonly byBaseRank = new Map<string, CrewMember[]>();

  constructor(private readonly pool: readonly CrewMember[]) {
    for (const c of pool) {
      push(this.byBase, c.home_base, c);
      push(this.byBaseRank, `${c.home_base}/${c.rank === 'CA' || c.rank === 'FO' ? c.rank : 'CABIN'}`, c);
    }
  }

  pick(rng: Rng, base: string, count: number): CrewMember[] {
    const chosen: CrewMember[] = [];
    const taken = new Set<string>();
    for (let i = 0; i < count; i++) {
      const group = i === 0 ? 'CA' : i === 1 ? 'FO' : 'CABIN';
      const candidates = this.byBaseRank.get(`${base}/${group}`) ?? this.byBase.get(base) ?? this.pool;
      // A few tries keep the crew distinct; a tiny pool may end with a smaller crew.
      for (let attempt = 0; attempt < 8; attempt++) {
        const c = rng.pick(candidates.length > 0 ? candidates : this.pool);
        if (!taken.has(c.employee_id)) {
          taken.add(c.employee_id);
          chosen.push(c);
          break;
        }
      }
    }
    return chosen;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
