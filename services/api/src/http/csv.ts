/** CSV exports (RFC 4180): one writer for every `.csv` endpoint, streamed with back-pressure. */
import { stringify } from 'csv-stringify';
import type { Response } from 'express';
import { csvCell } from '@crew/platform';

/**
 * Answers 200 with the rows as an attachment. `rows` may be an async source read page by page: each row is
 * written only when the client has taken the last ones, so a slow client never makes us buffer the export.
 */
export async function sendCsv(
  res: Response,
  filename: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]>,
): Promise<undefined> {
  res.status(200).setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  const csv = stringify({ header: true, columns: [...columns], quoted_match: /[",\r\n]/, record_delimiter: '\r\n' });
  csv.pipe(res);
  for await (const row of rows) {
    if (!csv.write(row.map(csvCell))) await new Promise((resolve) => csv.once('drain', resolve));
  }
  csv.end();
  await new Promise((resolve) => res.once('finish', resolve));
  return undefined;
}

/** The cells of a view in the columns' order. */
export function cellsOf<V extends object>(view: V, columns: readonly (keyof V & string)[]): unknown[] {
  return columns.map((c) => view[c]);
}
