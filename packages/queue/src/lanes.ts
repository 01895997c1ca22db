/**
 * A periodic look at the booking lanes for /metrics: depth per queue and priority (exact, ZCOUNT on the
 * lane's score range), and per airline the tasks waiting and the oldest one's age. Per-airline figures come
 * from the head of each lane (the next SAMPLE tasks to run): with fair share every airline with waiting
 * tasks has its oldest ones there. An airline with more than SAMPLE tasks in a lane is counted from its
 * fair-share tags (its next tag − its lowest waiting tag), which is exact unless the relay re-sent rows.
 * Cost per run: per queue, 4 ZCOUNT + 4 ZRANGEBYSCORE (≤ SAMPLE ids) + one pipelined HMGET per sampled job.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { TASK_PRIORITIES, type TaskPriority } from './catalog';
import { decodePriority, fairKeys, laneScores } from './fairness';

export const LANE_SAMPLE = 1000;

export interface LaneFigures {
  queue: string;
  priority: TaskPriority;
  /** Tasks waiting in the lane (runnable: prioritized; delayed retries are not counted until due). */
  waiting: number;
  /** Seconds the oldest sampled waiting task has waited since it became runnable; 0 when none. */
  oldestSeconds: number;
}

export interface AirlineFigures {
  airline_id: string;
  priority: TaskPriority;
  waiting: number;
  oldestSeconds: number;
}

export interface LaneSnapshot {
  lanes: LaneFigures[];
  /** Summed over the booking queues, one row per airline and priority with waiting tasks. */
  airlines: AirlineFigures[];
}

export async function sampleLanes(
  queues: readonly Queue[],
  now = Date.now(),
  sample = LANE_SAMPLE,
): Promise<LaneSnapshot> {
  const lanes: LaneFigures[] = [];
  const byAirline = new Map<string, AirlineFigures>();
  for (const queue of queues) {
    const redis = queue.opts.connection as unknown as Redis;
    const prefix = queue.opts.prefix ?? 'bull';
    const keys = fairKeys(prefix, queue.name);
    for (let l = 0; l < TASK_PRIORITIES.length; l++) {
      const priority = TASK_PRIORITIES[l]!;
      const [lo, hi] = laneScores(l);
      const [count, head] = await Promise.all([
        redis.zcount(keys.prioritized, lo, hi),
        redis.zrangebyscore(keys.prioritized, lo, hi, 'WITHSCORES', 'LIMIT', 0, sample),
      ]);
      const ids: string[] = [];
      const tags: number[] = [];
      for (let i = 0; i < head.length; i += 2) {
        ids.push(head[i]!);
        tags.push(decodePriority(Math.floor(Number(head[i + 1]) / 2 ** 32))?.tag ?? 0);
      }
      const pipe = redis.pipeline();
      for (const id of ids) pipe.hmget(`${prefix}:${queue.name}:${id}`, 'timestamp', 'delay', 'data');
      const rows = ids.length ? ((await pipe.exec()) ?? []) : [];
      let oldest = 0;
      const seen = new Map<string, { n: number; minTag: number; oldest: number }>();
      rows.forEach(([err, value], i) => {
        if (err || !Array.isArray(value)) return;
        const [ts, delay, data] = value as (string | null)[];
        const age = Math.max(0, (now - Number(ts ?? now) - Number(delay ?? 0)) / 1000);
        oldest = Math.max(oldest, age);
        let airline = 'unknown';
        try {
          airline = String((JSON.parse(data ?? '{}') as { airline_id?: string }).airline_id ?? 'unknown');
        } catch {
          // A job without readable data is still counted, under "unknown".
        }
        const s = seen.get(airline) ?? { n: 0, minTag: Infinity, oldest: 0 };
        s.n++;
        s.minTag = Math.min(s.minTag, tags[i]!);
        s.oldest = Math.max(s.oldest, age);
        seen.set(airline, s);
      });
      lanes.push({ queue: queue.name, priority, waiting: count, oldestSeconds: oldest });
      if (seen.size === 0) continue;
      // Beyond the sample: the airline's tags say how many of its tasks follow.
      const airlines = [...seen.keys()];
      const next = count > ids.length ? await redis.hmget(keys.lanes[l]!, ...airlines) : [];
      airlines.forEach((airline, i) => {
        const s = seen.get(airline)!;
        const byTags = next[i] ? Number(next[i]) - s.minTag : 0;
        const key = `${airline}\u0000${priority}`;
        const a = byAirline.get(key) ?? { airline_id: airline, priority, waiting: 0, oldestSeconds: 0 };
        a.waiting += Math.max(s.n, Number.isFinite(byTags) ? byTags : 0);
        a.oldestSeconds = Math.max(a.oldestSeconds, s.oldest);
        byAirline.set(key, a);
      });
    }
  }
  return { lanes, airlines: [...byAirline.values()] };
}
