import type { CostSettingsBody, CostSettingsView } from '@crew/contracts';
import { costSettingsRepo, type Db, type DbOrTrx } from '@crew/db';
import { DEFAULT_COST_SETTINGS, mergeCostSettings, type CostSettings } from '@crew/engine';
import { ApiError } from '@crew/platform';

/** The airline's cost settings: as stored, else the defaults (no hold, CANCEL after the deadline). */
export async function loadCostSettings(db: DbOrTrx, airlineId: string): Promise<CostSettings> {
  return (await costSettingsRepo.findCostSettings(db, airlineId)) ?? { ...DEFAULT_COST_SETTINGS };
}

export function costSettingsView(s: CostSettings): CostSettingsView {
  return { cancel_hold_minutes: s.cancel_hold_minutes, after_deadline: s.after_deadline };
}

/**
 * PUT /crew/config/cost: the engine merges the change into the stored settings (an omitted field keeps its
 * value); a fault is 422 naming the field and changes nothing. Two changes at once take turns on the row.
 */
export async function updateCostSettings(db: Db, airlineId: string, body: CostSettingsBody): Promise<CostSettings> {
  return db.transaction().execute(async (trx) => {
    const stored = await costSettingsRepo.lockCostSettings(trx, airlineId, DEFAULT_COST_SETTINGS);
    const merged = mergeCostSettings(stored, body);
    if (!merged.ok) throw ApiError.validation(merged.issues, 'The cost settings are not valid');
    await costSettingsRepo.saveCostSettings(trx, airlineId, merged.settings);
    return merged.settings;
  });
}
