import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { diffWriteRepo } from '../src';

/* A roster's crew entries create or update traveller profiles (employee_id, name); a profile the roster repeats as it is stays untouched. */

let t: TestDatabase;
let airlineId: string;
beforeAll(async () => {
  t = await createTestDatabase('roster_travellers');
  airlineId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Crew Air', 'CA')`.execute(
    t.db,
  );
});
afterAll(() => t.drop());

const upsert = (crew: { traveller_email: string; employee_id: string; name: string }[]) =>
  t.db.transaction().execute((trx) => diffWriteRepo.upsertTravellersFromRoster(trx, airlineId, crew));

async function profiles() {
  const { rows } = await sql<{
    traveller_email: string;
    employee_id: string;
    name: string;
    date_of_birth: string | null;
    version: string;
    locked: boolean;
  }>`
    select traveller_email, employee_id, name, date_of_birth::text, xmin::text as version, xmax::text <> '0' as locked
    from travellers where airline_id = ${airlineId} order by traveller_email`.execute(t.db);
  return new Map(rows.map((r) => [r.traveller_email, r]));
}

it('creates missing profiles, updates changed ones, and leaves unchanged ones untouched (not even locked)', async () => {
  await upsert([
    { traveller_email: 'Ann.Lee@crew.example', employee_id: 'E1', name: 'Ann Lee' },
    { traveller_email: 'bo.kim@crew.example', employee_id: 'E2', name: 'Bo Kim' },
  ]);
  await sql`update travellers set date_of_birth = '1980-02-03' where traveller_email = 'bo.kim@crew.example'`.execute(
    t.db,
  );
  const before = await profiles();
  expect([...before.keys()]).toEqual(['ann.lee@crew.example', 'bo.kim@crew.example']);

  // Chunks of 5,000: unchanged profiles in more than one statement.
  const many = Array.from({ length: 6000 }, (_, i) => ({
    traveller_email: `crew${i}@crew.example`,
    employee_id: `M${i}`,
    name: `Crew ${i}`,
  }));
  await upsert(many);
  const seeded = await profiles();

  await upsert([
    { traveller_email: 'ann.lee@CREW.example', employee_id: 'E1', name: 'Ann Lee' },
    { traveller_email: 'bo.kim@crew.example', employee_id: 'E2', name: 'Bo Kim-Park' },
    { traveller_email: 'cy.diaz@crew.example', employee_id: 'E3', name: 'Cy Diaz' },
    ...many,
  ]);
  const after = await profiles();
  expect(after.get('ann.lee@crew.example')).toEqual(before.get('ann.lee@crew.example'));
  expect(after.get('ann.lee@crew.example')!.locked).toBe(false);
  for (const c of many)
    expect(after.get(c.traveller_email)).toEqual({ ...seeded.get(c.traveller_email), locked: false });
  expect(after.get('bo.kim@crew.example')).toMatchObject({
    employee_id: 'E2',
    name: 'Bo Kim-Park',
    date_of_birth: '1980-02-03',
  });
  expect(after.get('bo.kim@crew.example')!.version).not.toBe(before.get('bo.kim@crew.example')!.version);
  expect(after.get('cy.diaz@crew.example')).toMatchObject({ employee_id: 'E3', name: 'Cy Diaz', date_of_birth: null });
});
