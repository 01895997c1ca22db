import type { Request } from 'express';
import type { DuffelResponse } from '@duffel/api/types';

/** Duffel's envelope of one resource. */
export const one = <T>(data: T): Pick<DuffelResponse<T>, 'data'> => ({ data });

/** Keyset pages over ids, as Duffel's lists (`after`: the id of the previous page's last item). */
export function page<T extends { id: string }>(
  items: T[],
  query: Request['query'],
): { data: T[]; meta: { after: string | null; before: string | null; limit: number } } {
  const limit = Math.min(200, Math.max(1, Number(query.limit ?? 50) || 50));
  const after = typeof query.after === 'string' ? query.after : undefined;
  const start = after ? items.findIndex((i) => i.id === after) + 1 : 0;
  const data = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return {
    data,
    meta: {
      after: more ? (data[data.length - 1]?.id ?? null) : null,
      before: start > 0 ? (data[0]?.id ?? null) : null,
      limit,
    },
  };
}
