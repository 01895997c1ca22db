import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import { ConsoleClient, consoleUserWithPassword, invitePath, inviteConsoleUser, outcome } from './console-client';

/*
 * The airline's integration manages its travel desk's console users over the API (airline-scoped, the spec's
 * error envelope): invite (201 with a single-use link), list, revoke; and the console setting requiring an
 * authenticator app.
 */

let stack: Stack;
let a: Tenant;
let b: Tenant;

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

beforeAll(async () => {
  stack = await startStack('console-users');
  a = await onboard(stack, { name: 'Alpha Air', carrier: 'AA' });
  b = await onboard(stack, { name: 'Beta Air', carrier: 'BB' });
});
afterAll(() => stack.close());

describe('POST/GET/DELETE /api/v1/crew/console-users', () => {
  it('invites a person: 201 {user_id, email, role, invite_url}; listed as INVITED, then ACTIVE once the password is set', async () => {
    const created = await inviteConsoleUser(stack, a, 'Desk.Agent@Alpha.test', 'AGENT');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'desk.agent@alpha.test',
      role: 'AGENT',
      invite_url: expect.stringMatching(/^http:\/\/[^/]+\/console\/invite\/[A-Za-z0-9_-]{43}$/),
      invite_expires_at: expect.any(String),
    });
    const hours = (Date.parse(created.body.invite_expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);

    let list = await api(a, '/crew/console-users');
    expect(list.status).toBe(200);
    expect(list.body.console_users).toEqual([
      {
        user_id: created.body.user_id,
        email: 'desk.agent@alpha.test',
        role: 'AGENT',
        status: 'INVITED',
        totp_enabled: false,
        created_at: expect.any(String),
      },
    ]);

    const browser = new ConsoleClient(stack.apiUrl);
    const path = invitePath(created.body.invite_url);
    const set = await browser.submit(path, {
      password: 'correct horse battery',
      password_repeat: 'correct horse battery',
    });
    expect(set.status).toBe(303);
    list = await api(a, '/crew/console-users');
    expect(list.body.console_users[0].status).toBe('ACTIVE');

    // Only the hash of the link's token is stored.
    const token = path.split('/').pop()!;
    const rows = await stack.database.db.selectFrom('console_invitations').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('a VIEWER is invited the same way; the list is oldest first and shows only the airline’s own people', async () => {
    const viewer = await inviteConsoleUser(stack, a, 'viewer@alpha.test', 'VIEWER');
    expect([viewer.status, viewer.body.role]).toEqual([201, 'VIEWER']);
    const other = await inviteConsoleUser(stack, b, 'someone@beta.test');
    expect(other.status).toBe(201);
    const listA = await api(a, '/crew/console-users');
    expect(listA.body.console_users.map((u: { email: string }) => u.email)).toEqual([
      'desk.agent@alpha.test',
      'viewer@alpha.test',
    ]);
    const listB = await api(b, '/crew/console-users');
    expect(listB.body.console_users.map((u: { email: string }) => u.email)).toEqual(['someone@beta.test']);
  });

  it('409 CONFLICT for an e-mail already active for the airline (any letter case); another airline may have it too', async () => {
    const dup = await inviteConsoleUser(stack, a, 'DESK.AGENT@alpha.test', 'VIEWER');
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: { code: 'CONFLICT', message: expect.any(String), details: [] }, status: 409 });
    const elsewhere = await inviteConsoleUser(stack, b, 'desk.agent@alpha.test', 'VIEWER');
    expect(elsewhere.status).toBe(201);
  });

  it('422 VALIDATION_FAILED in the envelope for a bad body', async () => {
    for (const body of [
      { email: 'not-an-email', role: 'AGENT' },
      { email: 'x@alpha.test', role: 'ADMIN' },
      { email: 'x@alpha.test' },
      { email: 'x@alpha.test', role: 'AGENT', password: 'chosen-by-the-integration' },
    ]) {
      const res = await api(a, '/crew/console-users', { method: 'POST', body });
      expect([JSON.stringify(body), res.status, res.body.error.code]).toEqual([
        JSON.stringify(body),
        422,
        'VALIDATION_FAILED',
      ]);
      expect(res.body.status).toBe(422);
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
  });

  it('DELETE revokes: 204, gone from the list, the e-mail may be invited again; a second DELETE is 404', async () => {
    const created = await inviteConsoleUser(stack, a, 'leaver@alpha.test', 'AGENT');
    const id = created.body.user_id as string;
    const del = await api(a, `/crew/console-users/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    const list = await api(a, '/crew/console-users');
    expect(list.body.console_users.map((u: { user_id: string }) => u.user_id)).not.toContain(id);
    expect((await api(a, `/crew/console-users/${id}`, { method: 'DELETE' })).status).toBe(404);
    // The revoked person's invitation link no longer works.
    const page = await new ConsoleClient(stack.apiUrl).get(invitePath(created.body.invite_url));
    expect(page.status).toBe(410);
    expect((await inviteConsoleUser(stack, a, 'leaver@alpha.test', 'VIEWER')).status).toBe(201);
  });

  it('another airline’s person is 404 (and stays active); an unknown or malformed id is 404', async () => {
    const created = await inviteConsoleUser(stack, a, 'kept@alpha.test', 'AGENT');
    const id = created.body.user_id as string;
    const cross = await api(b, `/crew/console-users/${id}`, { method: 'DELETE' });
    expect(cross.status).toBe(404);
    expect(cross.body.error.code).toBe('NOT_FOUND');
    const list = await api(a, '/crew/console-users');
    expect(list.body.console_users.map((u: { user_id: string }) => u.user_id)).toContain(id);
    expect(
      (await api(a, '/crew/console-users/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status,
    ).toBe(404);
    expect((await api(a, '/crew/console-users/not-a-uuid', { method: 'DELETE' })).status).toBe(404);
  });

  it('needs the integration’s bearer: 401 without it', async () => {
    const res = await http(`${stack.apiUrl}/api/v1/crew/console-users`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('revoking a person ends their open session at once', async () => {
    const id = await consoleUserWithPassword(stack, a, 'revoked-live@alpha.test', 'a long enough password');
    const browser = new ConsoleClient(stack.apiUrl);
    expect((await browser.signIn('revoked-live@alpha.test', 'a long enough password')).status).toBe(303);
    expect((await browser.get('/console')).status).toBe(200);
    expect((await api(a, `/crew/console-users/${id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await browser.get('/console');
    expect([after.status, after.location]).toEqual([303, '/console/sign-in?ended=1&next=%2Fconsole']);
    // And they cannot sign in again.
    expect(
      outcome(await new ConsoleClient(stack.apiUrl).signIn('revoked-live@alpha.test', 'a long enough password')),
    ).toBe('refused');
  });
});

describe('GET/PUT /api/v1/crew/console-settings', () => {
  it('require_totp is false until set; PUT sets it for this airline only; 422 on a bad body', async () => {
    expect((await api(a, '/crew/console-settings')).body).toEqual({ require_totp: false, updated_at: null });
    const put = await api(a, '/crew/console-settings', { method: 'PUT', body: { require_totp: true } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ require_totp: true, updated_at: expect.any(String) });
    expect((await api(a, '/crew/console-settings')).body.require_totp).toBe(true);
    expect((await api(b, '/crew/console-settings')).body.require_totp).toBe(false);
    for (const body of [{}, { require_totp: 'yes' }, { require_totp: true, other: 1 }]) {
      const bad = await api(a, '/crew/console-settings', { method: 'PUT', body });
      expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect((await api(a, '/crew/console-settings', { method: 'PUT', body: { require_totp: false } })).status).toBe(200);
  });
});
