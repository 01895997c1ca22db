import { startSandbox, type RunningSandbox } from '@crew/supplier-sandbox';
import { createDuffelClient, deleteDuffelWebhook, registerDuffelWebhook, type SupplierError } from '../src/index';
import { failure } from './failure';

/* Registering and deleting an airline's Duffel webhook, against the sandbox's Duffel wire format. */

const TOKEN = 'duffel_test_WebhookOwner0123456789abcdef';
const URL = 'https://crew.example/callbacks/duffel/airline-1';
let sb: RunningSandbox;
let base: string;

beforeAll(async () => {
  sb = await startSandbox({ timeoutHoldMs: 5000 });
  base = `${sb.baseUrl}/duffel`;
});
afterAll(() => sb.close());

const listed = async () =>
  (await createDuffelClient({ token: TOKEN, basePath: base }).webhooks.list({})).data.map((h) => h.id);

it('deletes a webhook, although Duffel answers 204 with no body; one already gone counts as deleted', async () => {
  const first = await registerDuffelWebhook(base, TOKEN, URL);
  const second = await registerDuffelWebhook(base, TOKEN, URL);
  expect(await listed()).toEqual([first.id, second.id]);

  await deleteDuffelWebhook(base, TOKEN, first.id);
  expect(await listed()).toEqual([second.id]);
  await expect(deleteDuffelWebhook(base, TOKEN, first.id)).resolves.toBeUndefined();
  await deleteDuffelWebhook(base, TOKEN, second.id);
  expect(await listed()).toEqual([]);
});

it('a deletion Duffel fails leaves the webhook and says so', async () => {
  const hook = await registerDuffelWebhook(base, TOKEN, URL);
  sb.duffel.armFault(TOKEN, { operation: 'webhooks.delete', outcome: 'error' });
  const err: SupplierError = await failure(deleteDuffelWebhook(base, TOKEN, hook.id));
  expect(err.transient).toBe(true);
  expect(await listed()).toContain(hook.id);
});
