import { randomUUID } from 'node:crypto';
import { sql, tenancyRepo, webhookRepo } from '@crew/db';
import { createLogger } from '@crew/platform';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { PromWorkerMetrics } from '../src/operability/metrics';
import { ReviewEscalation } from '../src/review-queue/escalation.monitor';

/** The review queue's escalation: action_item.due_soon once per item, and the overdue / due-soon gauges. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('review_escalation');
});
afterAll(() => database.drop());

const logger = createLogger('test', 'silent');
const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000).toISOString();

async function airlineWithEndpoint(name: string, code: string): Promise<string> {
  const a = await tenancyRepo.createAirline(database.db, name, code);
  await webhookRepo.insertEndpoint(database.db, {
    airline_id: a.airline_id,
    url: `https://hooks.example.com/${code}`,
    description: null,
    event_types: ['action_item.due_soon'],
    secret_enc: 'x',
  });
  return a.airline_id;
}

async function openItem(
  airlineId: string,
  priority: string,
  dueBy: string | null,
  over: { review_status?: string; disposition?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await sql`insert into action_items (action_id, airline_id, item_key, source, type, subtype, classification, priority, disposition,
      auto_eligible, anchors, source_rows, details, review_status, due_by)
    values (${id}, ${airlineId}, ${`k-${id}`}, 'IROP', 'FLIGHT', 'NEW_BOOKING', 'IROP_REBOOK', ${priority},
      ${over.disposition ?? 'PENDING_REVIEW'}, false, '{}', '{}', '{}', ${over.review_status ?? 'OPEN'}, ${dueBy})`.execute(
    database.db,
  );
  return id;
}

const dueSoonEvents = async () =>
  (
    await sql<{
      airline_id: string;
      data: { action_id: string } & Record<string, unknown>;
      links: Record<string, unknown>;
      urgent: boolean;
    }>`select airline_id, data, links, urgent from webhook_events where type = 'action_item.due_soon' order by seq`.execute(
      database.db,
    )
  ).rows;

it('announces each OPEN item due within due_soon_minutes (or overdue) once, and counts the queue by priority', async () => {
  const NOW = new Date('2027-05-01T12:00:00Z');
  const a = await airlineWithEndpoint('Desk A', 'DA');
  const overdue = await openItem(a, 'P1', minutes(NOW, -3));
  const soon = await openItem(a, 'P2', minutes(NOW, 20));
  const later = await openItem(a, 'P3', minutes(NOW, 45));
  await openItem(a, 'P1', minutes(NOW, -30), { review_status: 'RESOLVED', disposition: 'AUTO_BOOKED' });
  await openItem(a, 'P4', null);

  const metrics = new PromWorkerMetrics();
  let now = NOW;
  const pass = new ReviewEscalation({
    db: database.db,
    logger,
    report: (f, at) => metrics.setReviewQueue(f, at),
    now: () => now,
  });
  expect((await pass.pass()).announced).toBe(2);
  const events = await dueSoonEvents();
  expect(events.map((e) => e.data.action_id).sort()).toEqual([overdue, soon].sort());
  const p1 = events.find((e) => e.data.action_id === overdue)!;
  expect(p1).toEqual({
    airline_id: a,
    data: {
      action_id: overdue,
      schedule_id: null,
      type: 'FLIGHT',
      classification: 'IROP_REBOOK',
      priority: 'P1',
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      due_by: minutes(NOW, -3),
      booking_id: null,
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      action_reason: null,
      assignee: null,
    },
    links: { action_items: '/api/v1/crew/action-items?review_status=OPEN&sort=due_by', booking: null },
    urgent: true,
  });
  expect(events.find((e) => e.data.action_id === soon)!.urgent).toBe(false);

  const text = await metrics.registry.metrics();
  expect(text).toContain('crew_review_items_overdue{priority="P1",service="worker"} 1');
  expect(text).toContain('crew_review_items_due_soon{priority="P2",service="worker"} 1');
  expect(text).toContain('crew_review_items_due_soon{priority="P3",service="worker"} 0');
  expect(text).toContain('crew_review_items_overdue{priority="P4",service="worker"} 0');
  expect(text).toMatch(/crew_review_queue_sampled_timestamp_seconds\{service="worker"\} \d+/);

  // The next pass: nothing new is announced; 20 minutes on, the P3 item is due soon and the P2 one overdue.
  expect((await pass.pass()).announced).toBe(0);
  expect(await dueSoonEvents()).toHaveLength(2);
  now = new Date(NOW.getTime() + 20 * 60_000);
  expect((await pass.pass()).announced).toBe(1);
  expect((await dueSoonEvents()).map((e) => e.data.action_id)).toContain(later);
  const after = await metrics.registry.metrics();
  expect(after).toContain('crew_review_items_overdue{priority="P2",service="worker"} 1');
  expect(after).toContain('crew_review_items_due_soon{priority="P3",service="worker"} 1');
  metrics.close();
});

it('two workers passing at once announce each item once', async () => {
  const NOW = new Date('2027-06-01T12:00:00Z');
  const b = await airlineWithEndpoint('Desk B', 'DB');
  // The airline's own window: warned an hour ahead.
  await sql`insert into review_settings (airline_id, lead_time_minutes, due_soon_minutes, priority_targets_minutes)
    values (${b}, 240, 60, '{}')`.execute(database.db);
  const ids = await Promise.all(
    Array.from({ length: 40 }, (_, i) => openItem(b, i % 2 ? 'P2' : 'P3', minutes(NOW, i * 2))),
  );
  const before = (await dueSoonEvents()).length;
  // Two workers, small batches: they work through the same items at the same time.
  const worker = () =>
    new ReviewEscalation({ db: database.db, logger, report: () => undefined, now: () => NOW, batch: 4 });
  const [one, two] = await Promise.all([worker().pass(), worker().pass()]);
  const events = (await dueSoonEvents()).slice(before);
  const announced = events.map((e) => e.data.action_id);
  // Due within 60 minutes: i * 2 <= 60.
  const due = ids.filter((_, i) => i * 2 <= 60);
  expect(announced.sort()).toEqual([...due].sort());
  expect(one.announced + two.announced).toBe(due.length);
});
