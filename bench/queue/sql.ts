/**
 * The queue's keyset query timed in SQL alone (no HTTP): GET /crew/action-items?review_status=OPEN&sort=due_by
 * reads a page of the airline's OPEN items by (due_by, action_id), items without a due_by last. Two forms of
 * "after the cursor" are timed: an OR of the key's cases (what a null-last keyset reads naturally), and a row
 * comparison, which the partial index can start at the cursor (alone, and followed by the items without a due_by).
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { percentile } from '../lib/stats';

export interface Cursor {
  key: string | null;
  id: string;
}

const BASE = `select *, due_by::text as keyset_key from action_items where airline_id = $1 and review_status = 'OPEN'`;
const ORDER = 'order by due_by asc nulls last, action_id limit $2';

export const QUERIES = {
  first: `${BASE} ${ORDER}`,
  /** After a cursor: its three cases (a later key, the same key and a later id, no key at all). */
  after_or: `${BASE} and (due_by > $3::timestamptz or (due_by = $3::timestamptz and action_id > $4::uuid) or due_by is null) ${ORDER}`,
  /** After a cursor with a key, as one row comparison (the items without one are read once these run out). */
  after_row: `${BASE} and (due_by, action_id) > ($3::timestamptz, $4::uuid) ${ORDER}`,
  /**
   * The row comparison, then the items without a due_by, in one statement: the second branch runs only when the
   * first ends short of the page.
   */
  after_row_then_unkeyed: `(${BASE} and (due_by, action_id) > ($3::timestamptz, $4::uuid) order by due_by, action_id limit $2)
    union all (${BASE} and due_by is null order by action_id limit $2) limit $2`,
} as const;

/** The position of the `n`th OPEN item (0-based) in the queue's order: the cursor of a page that starts after it. */
export async function cursorAt(client: pg.Client, airlineId: string, n: number): Promise<Cursor> {
  const r = await client.query<{ key: string | null; id: string }>(
    `select due_by::text as key, action_id as id from action_items where airline_id = $1 and review_status = 'OPEN'
      order by due_by asc nulls last, action_id offset $2 limit 1`,
    [airlineId, n],
  );
  return r.rows[0]!;
}

export interface SqlTiming {
  query: string;
  depth: number;
  rows: number;
  p50: number;
  p99: number;
  /** From EXPLAIN (ANALYZE, BUFFERS): execution time, the plan's scan, and buffers read or hit. */
  explainMs: number;
  scan: string;
  buffers: number;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function scanOf(node: PlanNode): string {
  if (node['Node Type'].includes('Scan')) {
    const removed = node['Rows Removed by Filter'];
    return `${node['Node Type']}${node['Index Name'] ? ` on ${node['Index Name']}` : ''}${removed ? `, ${removed.toLocaleString('en-US')} rows filtered out` : ''}`;
  }
  for (const child of node.Plans ?? []) {
    const s = scanOf(child);
    if (s) return s;
  }
  return '';
}

/** Runs `query` `iterations` times (after a warm-up) and EXPLAINs it once. */
export async function timeQuery(
  client: pg.Client,
  name: keyof typeof QUERIES,
  params: unknown[],
  depth: number,
  iterations: number,
): Promise<SqlTiming> {
  const sqlText = QUERIES[name];
  for (let i = 0; i < 5; i++) await client.query(sqlText, params);
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    const r = await client.query(sqlText, params);
    samples.push(performance.now() - t0);
    rows = r.rowCount ?? 0;
  }
  const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `explain (analyze, buffers, format json) ${sqlText}`,
    params,
  );
  const plan = explained.rows[0]!['QUERY PLAN'][0];
  return {
    query: name,
    depth,
    rows,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    explainMs: plan['Execution Time'],
    scan: scanOf(plan.Plan),
    buffers: (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0),
  };
}
