/**
 * Priority lanes with per-airline fair share inside each lane, expressed in BullMQ's job priority (lower runs
 * first). BullMQ OSS has no groups, so the order is decided when the outbox relay adds a booking task:
 *
 *   priority = 1 + lane × LANE_RANGE + min(tag, LANE_RANGE − 2)      lane: P1 = 0 … P4 = 3
 *
 * `tag` is a start-time fair-queuing tag (SFQ, unit cost per task): the lane's virtual clock is the tag of its
 * next waiting task (the lowest priority in the lane), and each airline's next tag is max(clock, its previous
 * tag + 1). Airlines with backlogs therefore interleave one task each (equal tags run in the order added), and
 * an airline arriving with one task starts at the clock, ahead of another airline's backlog. When a lane has
 * nothing waiting its tags start again from 0. Everything runs in one Lua script, so the relays of every api
 * and worker process share the counters. A lane that never empties for more than LANE_RANGE (524 288) tags
 * degrades to first-in first-out for the tail beyond that (documented in docs/decisions.md).
 */
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { TASK_PRIORITIES, type TaskPriority } from './catalog';

/** Priorities per lane: BullMQ allows 1 … 2^21 − 1, four lanes of 2^19. */
export const LANE_RANGE = 2 ** 19;
/** Score of BullMQ's `prioritized` sorted set: priority × 2^32 + insertion counter. */
const SCORE_SCALE = 2 ** 32;

/** Missing on jobs written before lanes existed. */
export const DEFAULT_TASK_PRIORITY: TaskPriority = 'P3';

export const laneIndex = (p: TaskPriority | undefined): number =>
  Math.max(0, TASK_PRIORITIES.indexOf(p ?? DEFAULT_TASK_PRIORITY));

/** The lane and the fair-share tag a BullMQ priority encodes. */
export function decodePriority(priority: number): { lane: TaskPriority; tag: number } | null {
  if (!(priority >= 1)) return null;
  const lane = Math.min(3, Math.floor((priority - 1) / LANE_RANGE));
  return { lane: TASK_PRIORITIES[lane]!, tag: priority - 1 - lane * LANE_RANGE };
}

/** Lowest and highest score of a lane in the `prioritized` sorted set. */
export function laneScores(lane: number): [number, number] {
  return [(1 + lane * LANE_RANGE) * SCORE_SCALE, (1 + (lane + 1) * LANE_RANGE) * SCORE_SCALE - 1];
}

// KEYS[1] prioritized zset; KEYS[2..5] per-lane hash airline -> next tag. ARGV[1] LANE_RANGE, ARGV[2] ttl s,
// then (lane, airline) pairs. Returns one priority per pair.
const ASSIGN = `
local range = tonumber(ARGV[1])
local scale = 4294967296
local clocks = {}
local out = {}
for i = 3, #ARGV, 2 do
  local l = tonumber(ARGV[i])
  local airline = ARGV[i + 1]
  local key = KEYS[2 + l]
  local clock = clocks[l]
  if clock == nil then
    local lo = (1 + l * range) * scale
    local hi = (1 + (l + 1) * range) * scale - 1
    local head = redis.call('ZRANGEBYSCORE', KEYS[1], lo, hi, 'WITHSCORES', 'LIMIT', 0, 1)
    if #head == 0 then
      redis.call('DEL', key)
      clock = 0
    else
      clock = math.floor(tonumber(head[2]) / scale) - 1 - l * range
    end
    clocks[l] = clock
    redis.call('EXPIRE', key, tonumber(ARGV[2]))
  end
  local tag = math.max(clock, tonumber(redis.call('HGET', key, airline) or '0'))
  redis.call('HSET', key, airline, tag + 1)
  out[#out + 1] = 1 + l * range + math.min(tag, range - 2)
end
return out
`;

/** Redis keys of one booking queue's fair-share state. */
export function fairKeys(prefix: string, queue: string): { prioritized: string; lanes: string[] } {
  return {
    prioritized: `${prefix}:${queue}:prioritized`,
    lanes: TASK_PRIORITIES.map((p) => `${prefix}:${queue}:fair:${p}`),
  };
}

export interface FairTask {
  airline_id: string;
  priority?: TaskPriority;
}

/** BullMQ priorities for tasks about to be added to `queue`, in order (one round trip). */
export async function assignPriorities(queue: Queue, tasks: readonly FairTask[]): Promise<number[]> {
  if (tasks.length === 0) return [];
  const redis = queue.opts.connection as unknown as Redis;
  const keys = fairKeys(queue.opts.prefix ?? 'bull', queue.name);
  const args: (string | number)[] = [LANE_RANGE, 7 * 24 * 3600];
  for (const t of tasks) args.push(laneIndex(t.priority), t.airline_id);
  const out = (await redis.eval(ASSIGN, 1 + keys.lanes.length, keys.prioritized, ...keys.lanes, ...args)) as number[];
  return out.map(Number);
}
