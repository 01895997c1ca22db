import type { Static } from '@sinclair/typebox';
import type { TravellerBody, TravellerProfile, TravellerProfileBody, ValidationIssue } from '@crew/contracts';
import { travellerRepo, type Db, type DbOrTrx, type Traveller, type TravellerColumns } from '@crew/db';
import {
  ApiError,
  PERSONAL_FIELDS,
  type OpenedPersonal,
  type PersonalData,
  type SealedPersonal,
  type TravellerVault,
} from '@crew/platform';

/** The path an airline sets its crew's profiles on (named in the date-of-birth 422). */
export const travellerProfilePath = (employeeId: string) => `/api/v1/crew/travellers/${employeeId}`;

/** The actor recorded for the operator API's writes. */
export const OPERATOR_ACTOR = 'operator';

const NAME_FIELDS = ['first_name', 'last_name'] as const;

/** A row's personal fields as stored: the sealed text and the legacy plain date of birth. */
export const sealedOf = (row: Pick<Traveller, 'personal_sealed' | 'date_of_birth'>): SealedPersonal => ({
  personal_sealed: row.personal_sealed,
  legacy_date_of_birth: row.date_of_birth,
});

/** Shows only the last 4 characters: the airline already holds the number, and read tokens are broader than write ones. */
export function maskDocumentNumber(n: string): string {
  return n.length <= 4 ? '*'.repeat(n.length) : '*'.repeat(n.length - 4) + n.slice(-4);
}

export function profileView(row: Traveller, personal: PersonalData, employeeId: string): TravellerProfile {
  const doc = personal.identity_document;
  return {
    employee_id: row.employee_id ?? employeeId,
    traveller_email: row.traveller_email,
    first_name: row.first_name,
    last_name: row.last_name,
    name: row.name,
    date_of_birth: personal.date_of_birth ?? null,
    gender: personal.gender ?? null,
    title: personal.title ?? null,
    phone_number: personal.phone_number ?? null,
    identity_document: doc ? { ...doc, number: maskDocumentNumber(doc.number) } : null,
    updated_at: row.updated_at.toISOString(),
  };
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** ISO 3166-1 alpha-2 codes the runtime's ICU names (XK included, as passports carry it). */
const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && REGIONS.of(code) !== code;

/** What the schema cannot say: dates against today, a country that exists. Every bad field is named. */
export function profileIssues(body: TravellerProfileBody, today: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (body.date_of_birth && body.date_of_birth >= today)
    issues.push({ field: '/date_of_birth', issue: 'must be in the past' });
  if (body.date_of_birth && body.date_of_birth < '1900-01-01')
    issues.push({ field: '/date_of_birth', issue: 'must be on or after 1900-01-01' });
  const doc = body.identity_document;
  if (doc && !isCountry(doc.issuing_country))
    issues.push({ field: '/identity_document/issuing_country', issue: 'is not an ISO 3166-1 alpha-2 country code' });
  if (doc && doc.expires_on < today)
    issues.push({ field: '/identity_document/expires_on', issue: 'is in the past (the document has expired)' });
  return issues;
}

/** `current` with the body applied: omitted fields keep their value, null clears. */
function mergePersonal(
  current: PersonalData,
  body: Partial<Record<(typeof PERSONAL_FIELDS)[number], unknown>>,
): PersonalData {
  const next: Record<string, unknown> = { ...current };
  for (const f of PERSONAL_FIELDS) {
    if (body[f] === null) delete next[f];
    else if (body[f] !== undefined) next[f] = f === 'identity_document' ? { ...body[f] } : body[f];
  }
  return next;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The full name the booking falls back on, from the passport names when either is set. */
function nameOf(first: string | null | undefined, last: string | null | undefined): string | undefined {
  const name = [first, last].filter(Boolean).join(' ');
  return name || undefined;
}

interface Write {
  row: Traveller;
  personal: PersonalData;
}

/**
 * Writes a profile: the changed name columns, the personal fields sealed again when any changed (or when the
 * row still had a plain date of birth), and one audit entry naming the changed fields. Nothing changed: no write.
 */
async function write(
  trx: DbOrTrx,
  vault: TravellerVault,
  airlineId: string,
  target: { row: Traveller | undefined; opened: OpenedPersonal; email: string; employeeId: string | null },
  names: { first_name?: string | null | undefined; last_name?: string | null | undefined },
  personal: PersonalData,
  actor: string,
): Promise<Write> {
  const { row, opened } = target;
  const changed: string[] = [];
  if (!row || row.traveller_email !== target.email) changed.push('traveller_email');
  if (target.employeeId !== null && row?.employee_id !== target.employeeId) changed.push('employee_id');
  const columns: TravellerColumns = {};
  for (const f of NAME_FIELDS) {
    if (names[f] !== undefined && names[f] !== (row?.[f] ?? null)) {
      changed.push(f);
      columns[f] = names[f];
    }
  }
  for (const f of PERSONAL_FIELDS) if (!same(opened.data[f], personal[f])) changed.push(f);
  const personalChanged = changed.some((f) => (PERSONAL_FIELDS as readonly string[]).includes(f));
  if (personalChanged || row?.date_of_birth || opened.unreadable)
    Object.assign(columns, vault.seal(airlineId, personal));
  if (columns.first_name !== undefined || columns.last_name !== undefined) {
    const name = nameOf(
      columns.first_name === undefined ? row?.first_name : columns.first_name,
      columns.last_name === undefined ? row?.last_name : columns.last_name,
    );
    if (name !== undefined) columns.name = name;
  }
  if (target.employeeId !== null) columns.employee_id = target.employeeId;
  if (row && !changed.length && !Object.keys(columns).some((k) => k !== 'employee_id')) return { row, personal };
  const saved = row
    ? await travellerRepo.updateProfile(
        trx,
        airlineId,
        row.traveller_email,
        columns,
        row.traveller_email !== target.email ? target.email : undefined,
      )
    : await travellerRepo.insertProfile(trx, airlineId, target.email, columns);
  if (changed.length) {
    await travellerRepo.insertAudit(trx, {
      airline_id: airlineId,
      traveller_email: saved.traveller_email,
      employee_id: saved.employee_id,
      actor,
      action: row ? 'UPDATE' : 'CREATE',
      fields: changed,
    });
  }
  return { row: saved, personal };
}

/**
 * PUT /crew/travellers/{employee_id}: the airline's upsert of one employee's profile. A new profile needs the
 * e-mail; an e-mail of another employee (or of another profile, while this employee has one) is 409.
 */
export async function putProfile(
  db: Db,
  vault: TravellerVault,
  airlineId: string,
  employeeId: string,
  body: TravellerProfileBody,
  actor: string,
  today: string,
): Promise<Write & { created: boolean }> {
  const issues = profileIssues(body, today);
  if (issues.length) throw ApiError.validation(issues);
  return db.transaction().execute(async (trx) => {
    await travellerRepo.lockProfiles(trx, airlineId);
    const current = await travellerRepo.findByEmployee(trx, airlineId, employeeId);
    const email = body.traveller_email?.toLowerCase();
    let row = current;
    if (email && email !== current?.traveller_email) {
      const holder = await travellerRepo.findByEmail(trx, airlineId, email);
      if (holder && (current || holder.employee_id !== null)) {
        throw ApiError.conflict(`traveller_email ${email} belongs to another traveller profile of this airline`);
      }
      // A profile the operator made by e-mail alone becomes this employee's.
      row = holder;
    }
    if (!row && !email)
      throw ApiError.validation([
        { field: '/traveller_email', issue: 'is required when the employee has no traveller profile yet' },
      ]);
    const opened = row ? vault.open(airlineId, sealedOf(row)) : { data: {}, unreadable: false };
    const target = { row, opened, email: email ?? row!.traveller_email, employeeId };
    const saved = await write(trx, vault, airlineId, target, body, mergePersonal(opened.data, body), actor);
    return { ...saved, created: !row };
  });
}

/** The operator's PUT /ops/v1/airlines/{airline_id}/travellers/{traveller_email} (same body and answer as before), sealed too. */
export async function opsUpsert(
  db: Db,
  vault: TravellerVault,
  airlineId: string,
  email: string,
  body: Static<typeof TravellerBody>,
): Promise<Write> {
  return db.transaction().execute(async (trx) => {
    await travellerRepo.lockProfiles(trx, airlineId);
    const row = await travellerRepo.findByEmail(trx, airlineId, email);
    const opened = row ? vault.open(airlineId, sealedOf(row)) : { data: {}, unreadable: false };
    const target = { row, opened, email: email.toLowerCase(), employeeId: body.employee_id ?? null };
    const saved = await write(
      trx,
      vault,
      airlineId,
      target,
      body,
      mergePersonal(opened.data, { date_of_birth: body.date_of_birth, phone_number: body.phone_number }),
      OPERATOR_ACTOR,
    );
    // The operator's answer always carries a fresh updated_at, as the upsert did before.
    if (saved.row === row) saved.row = await travellerRepo.updateProfile(trx, airlineId, row.traveller_email, {});
    return saved;
  });
}

/** GET: the employee's profile opened; a sealed text that does not open reads as no personal fields. */
export async function getProfile(
  db: Db,
  vault: TravellerVault,
  airlineId: string,
  employeeId: string,
): Promise<Write & { unreadable: boolean }> {
  const row = await travellerRepo.findByEmployee(db, airlineId, employeeId);
  if (!row) throw ApiError.notFound('Traveller profile');
  const opened = vault.open(airlineId, sealedOf(row));
  return { row, personal: opened.data, unreadable: opened.unreadable };
}
