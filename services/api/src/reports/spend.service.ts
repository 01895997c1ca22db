import type { SpendQuery, SpendReport } from '@crew/contracts';
import { fxRepo, spendRepo, type Db } from '@crew/db';
import { fxTable, spendQueryIssues, spendReport } from '@crew/engine';
import { ApiError } from '@crew/platform';

/** The airline's spend report (the API's and the console's): the period checked, the amounts read once, summed. */
export async function airlineSpend(db: Db, airlineId: string, query: SpendQuery): Promise<SpendReport> {
  const issues = spendQueryIssues(query);
  if (issues.length > 0) throw ApiError.validation(issues, 'The report’s period is not valid');
  const [entries, rates] = await Promise.all([
    spendRepo.spendEntries(db, airlineId, query.from, query.to),
    fxRepo.listRates(db),
  ]);
  const q = {
    from: query.from,
    to: query.to,
    group_by: query.group_by ?? 'station',
    currency: query.currency ?? 'USD',
  };
  return spendReport(entries, q, fxTable(rates));
}
