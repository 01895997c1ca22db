import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { SupplierSettingsBody } from '@crew/contracts';
import { airlineChangeRepo, sql } from '@crew/db';
import { closeServer, createLogger, Keyring, listen } from '@crew/platform';
import { apiDepsOf, http, type Stack, startStack } from '@crew/test-support';
import { createApiApp } from '../src/app';
import { putSupplierSettings, type SupplierSettingDeps } from '../src/ops/suppliers.routes';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('supplier_settings');
});
afterAll(() => stack.close());

const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const airline = async (carrier: string) =>
  (await ops('/airlines', { method: 'POST', body: { name: `Air ${carrier}`, carrier_code: carrier } })).body
    .airline_id as string;
const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const TOKEN = 'duffel_test_settings_0123456789';

describe("an airline's supplier order", () => {
  it('is SANDBOX only when none is set', async () => {
    const id = await airline('SA');
    const res = await ops(`/airlines/${id}/suppliers`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      flights: ['SANDBOX'],
      hotels: ['SANDBOX'],
      duffel: null,
      own_airline: null,
      updated_at: null,
    });
    expect((await ops('/airlines/00000000-0000-0000-0000-000000000000/suppliers')).status).toBe(404);
  });

  it('refuses an unknown supplier, OWN_AIRLINE among hotels, and a supplier named without its settings (422, nothing stored)', async () => {
    const id = await airline('SB');
    const unknown = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['AMADEUS'], hotels: ['SANDBOX'] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0].field).toMatch(/^\/flights/);
    expect(
      (
        await ops(`/airlines/${id}/suppliers`, {
          method: 'PUT',
          body: { flights: ['SANDBOX'], hotels: ['OWN_AIRLINE'] },
        })
      ).status,
    ).toBe(422);
    const noToken = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['SANDBOX', 'DUFFEL'], hotels: ['SANDBOX'] },
    });
    expect(noToken.status).toBe(422);
    expect(noToken.body.error.details).toEqual([
      { field: '/flights/1', issue: expect.stringContaining('duffel.access_token') },
    ]);
    const noOwn = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['OWN_AIRLINE'], hotels: ['SANDBOX'] },
    });
    expect(noOwn.status).toBe(422);
    expect(noOwn.body.error.details[0].field).toBe('/flights/0');
    expect((await ops(`/airlines/${id}/suppliers`)).body.updated_at).toBeNull();
  });

  it("stores the own airline's signing secret sealed, bound to the airline, and never answers it", async () => {
    const id = await airline('SC');
    const body = {
      flights: ['OWN_AIRLINE', 'SANDBOX'],
      hotels: ['SANDBOX'],
      own_airline: { url: 'https://crew.example.test/seats', carrier: 'SC', signing_secret: SECRET },
    };
    const res = await ops(`/airlines/${id}/suppliers`, { method: 'PUT', body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      flights: ['OWN_AIRLINE', 'SANDBOX'],
      own_airline: { url: body.own_airline.url, carrier: 'SC', signing_secret_set: true },
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const row = await sql<{
      sealed: string;
    }>`select own_airline_secret_sealed as sealed from airline_suppliers where airline_id = ${id}`.execute(
      stack.database.db,
    );
    const sealed = row.rows[0]!.sealed;
    expect(sealed).not.toContain(SECRET.slice(6));
    const keyring = Keyring.parse(stack.config.supplierCredentialsKey);
    expect(keyring.open(sealed, id)).toBe(SECRET);
    // Copied to another airline, the row does not open.
    expect(() => keyring.open(sealed, '00000000-0000-0000-0000-000000000001')).toThrow('does not open');
    // Omitted: kept. null: removed (and OWN_AIRLINE can then no longer be named).
    expect(
      (
        await ops(`/airlines/${id}/suppliers`, {
          method: 'PUT',
          body: { flights: ['OWN_AIRLINE'], hotels: ['SANDBOX'] },
        })
      ).body.own_airline.signing_secret_set,
    ).toBe(true);
    expect(
      (
        await ops(`/airlines/${id}/suppliers`, {
          method: 'PUT',
          body: { flights: ['OWN_AIRLINE'], hotels: ['SANDBOX'], own_airline: null },
        })
      ).status,
    ).toBe(422);
    const cleared = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['SANDBOX'], hotels: ['SANDBOX'], own_airline: null },
    });
    expect(cleared.body.own_airline).toBeNull();
  });

  it('checks a Duffel token with Duffel, answers only that one is set, keeps it when omitted and removes it on null', async () => {
    const id = await airline('SD');
    const put = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['DUFFEL', 'SANDBOX'], hotels: ['SANDBOX'], duffel: { access_token: TOKEN } },
    });
    expect(put.status).toBe(200);
    expect(put.body.duffel).toEqual({
      access_token_set: true,
      live_mode: false,
      webhook_registered: expect.any(Boolean),
    });
    expect(JSON.stringify(put.body)).not.toContain(TOKEN);
    expect(JSON.stringify((await ops(`/airlines/${id}/suppliers`)).body)).not.toContain(TOKEN);
    const kept = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['DUFFEL'], hotels: ['SANDBOX'] },
    });
    expect(kept.body.duffel.access_token_set).toBe(true);
    const removed = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['SANDBOX'], hotels: ['SANDBOX'], duffel: null },
    });
    expect(removed.body.duffel).toBeNull();
    expect(stack.logLines.join('\n')).not.toContain(TOKEN);
  });

  it('answers 422 for a token Duffel refuses, storing nothing', async () => {
    const id = await airline('SE');
    const refused = 'duffel_test_refused_by_duffel';
    stack.sandbox.duffel.refuseToken(refused);
    const res = await ops(`/airlines/${id}/suppliers`, {
      method: 'PUT',
      body: { flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: refused } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('/duffel/access_token');
    expect(JSON.stringify(res.body)).not.toContain(refused);
    expect((await ops(`/airlines/${id}/suppliers`)).body.updated_at).toBeNull();
    expect(stack.logLines.join('\n')).not.toContain(refused);
  });

  it('refuses SANDBOX in production unless the deployment allows it', async () => {
    const id = await airline('SF');
    for (const [allowed, status] of [
      ['false', 422],
      ['true', 200],
    ] as const) {
      const config = { ...stack.config, nodeEnv: 'production', supplierSandboxAllowed: allowed === 'true' };
      const server = createServer(createApiApp(apiDepsOf(stack, { config })));
      const port = await listen(server, 0, '127.0.0.1');
      try {
        const res = await http(`http://127.0.0.1:${port}/ops/v1/airlines/${id}/suppliers`, {
          token: stack.opsToken,
          method: 'PUT',
          body: { flights: ['SANDBOX'], hotels: ['SANDBOX'] },
        });
        expect(res.status).toBe(status);
        if (status === 422) expect(res.body.error.details[0].issue).toContain('SUPPLIER_SANDBOX_ALLOWED');
      } finally {
        await closeServer(server, 100);
      }
    }
  });
});

describe("Duffel's webhook", () => {
  const stored = async (id: string) =>
    (
      await sql<{
        token: string;
        webhook_id: string | null;
        secret: string | null;
      }>`select duffel_token_sealed as token, duffel_webhook_id as webhook_id, duffel_webhook_secret_sealed as secret
        from airline_suppliers where airline_id = ${id}`.execute(stack.database.db)
    ).rows[0]!;

  it('is registered once per token: a PUT of the same token (a key rotation) registers none and keeps it, re-sealed', async () => {
    const id = await airline('SG');
    const registered: string[] = [];
    const deps: SupplierSettingDeps = {
      db: stack.database.db,
      config: stack.config,
      logger: createLogger('test', 'silent'),
      checkDuffelToken: () => Promise.resolve({ live_mode: false }),
      registerDuffelWebhook: (token) => {
        registered.push(token);
        return Promise.resolve({ id: `sev_${registered.length}`, secret: `secret-${registered.length}` });
      },
    };
    const body = (token: string): SupplierSettingsBody => ({
      flights: ['DUFFEL'],
      hotels: ['SANDBOX'],
      duffel: { access_token: token },
    });
    const first = await putSupplierSettings(deps, id, body('duffel_test_first_0123456789'));
    expect(first.duffel?.webhook_registered).toBe(true);
    expect(registered).toHaveLength(1);

    // The same token again, as the documented SUPPLIER_CREDENTIALS_KEY rotation does (a new key listed first).
    const rotated: SupplierSettingDeps = {
      ...deps,
      config: {
        ...stack.config,
        supplierCredentialsKey: `k2:${randomBytes(32).toString('base64')},${stack.config.supplierCredentialsKey}`,
      },
    };
    const again = await putSupplierSettings(rotated, id, body('duffel_test_first_0123456789'));
    expect(again.duffel?.webhook_registered).toBe(true);
    expect(registered).toHaveLength(1);
    const row = await stored(id);
    expect(row.webhook_id).toBe('sev_1');
    const keyring = Keyring.parse(rotated.config.supplierCredentialsKey);
    expect([Keyring.keyIdOf(row.token), Keyring.keyIdOf(row.secret!)]).toEqual(['k2', 'k2']);
    expect(keyring.open(row.secret!, id)).toBe('secret-1');
    expect(keyring.open(row.token, id)).toBe('duffel_test_first_0123456789');

    // A new token registers its own webhook.
    await putSupplierSettings(rotated, id, body('duffel_test_second_0123456789'));
    expect(registered).toHaveLength(2);
    expect((await stored(id)).webhook_id).toBe('sev_2');

    // A registration that raced another (the worker's periodic check) never replaces the one recorded.
    const now = await stored(id);
    expect(await airlineChangeRepo.saveDuffelWebhook(stack.database.db, id, now.token, 'sev_late', now.secret!)).toBe(
      false,
    );
    expect((await stored(id)).webhook_id).toBe('sev_2');
  });

  it('deletes at Duffel, with the token that registered it, a webhook no longer recorded: its token replaced or dropped, or a registration that lost a race', async () => {
    const id = await airline('SD');
    const deleted: [string, string][] = [];
    let registered = 0;
    const deps: SupplierSettingDeps = {
      db: stack.database.db,
      config: stack.config,
      logger: createLogger('test', 'silent'),
      checkDuffelToken: () => Promise.resolve({ live_mode: false }),
      registerDuffelWebhook: () => Promise.resolve({ id: `sev_d${++registered}`, secret: `secret-${registered}` }),
      deleteDuffelWebhook: (token, webhookId) => {
        deleted.push([token, webhookId]);
        return Promise.resolve();
      },
    };
    const body = (token: string | null): SupplierSettingsBody => ({
      flights: token ? ['DUFFEL'] : ['SANDBOX'],
      hotels: ['SANDBOX'],
      duffel: token ? { access_token: token } : null,
    });
    await putSupplierSettings(deps, id, body('duffel_test_old_0123456789'));
    await putSupplierSettings(deps, id, body('duffel_test_old_0123456789'));
    expect(deleted).toEqual([]);

    await putSupplierSettings(deps, id, body('duffel_test_new_0123456789'));
    expect(deleted).toEqual([['duffel_test_old_0123456789', 'sev_d1']]);
    expect((await stored(id)).webhook_id).toBe('sev_d2');

    await putSupplierSettings(deps, id, body(null));
    expect(deleted).toEqual([
      ['duffel_test_old_0123456789', 'sev_d1'],
      ['duffel_test_new_0123456789', 'sev_d2'],
    ]);

    // The worker's periodic check records its own while this PUT registers: the PUT's is deleted again.
    const racing: SupplierSettingDeps = {
      ...deps,
      registerDuffelWebhook: async () => {
        const row = await stored(id);
        await airlineChangeRepo.saveDuffelWebhook(stack.database.db, id, row.token, 'sev_worker', 'sealed-elsewhere');
        return { id: 'sev_lost', secret: 'secret-lost' };
      },
    };
    await putSupplierSettings(racing, id, body('duffel_test_third_0123456789'));
    expect(deleted.at(-1)).toEqual(['duffel_test_third_0123456789', 'sev_lost']);
    expect((await stored(id)).webhook_id).toBe('sev_worker');

    // Duffel failing the deletion never fails the PUT.
    const failing: SupplierSettingDeps = { ...deps, deleteDuffelWebhook: () => Promise.reject(new Error('down')) };
    const after = await putSupplierSettings(failing, id, body('duffel_test_fourth_0123456789'));
    expect(after.duffel?.webhook_registered).toBe(true);
  });
});
