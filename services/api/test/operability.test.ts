/** The operator's surfaces of the api: /docs, /admin/queues, /metrics (the OpenAPI document: openapi-document.test.ts). */
import { QUEUE_NAMES } from '@crew/queue';
import { http, parsePrometheusText, sampleValue } from '@crew/test-support';
import { stack, tenant, useOperabilityStack, basic, expectEnvelope } from './operability-stack';

useOperabilityStack('operability');

describe('/docs', () => {
  it('serves Swagger UI from local assets with an init script file (helmet CSP: no inline script)', async () => {
    const page = await http(`${stack.apiUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body!.trim()).toBe('');
      expect(attrs).toMatch(/src="\/docs\//);
    }
    expect(page.text).not.toMatch(/https?:\/\//);
    const init = await http(`${stack.apiUrl}/docs/init.js`);
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(init.text).toContain('"/openapi.json"');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const res = await fetch(`${stack.apiUrl}/docs/${asset}`);
      expect([asset, res.status]).toEqual([asset, 200]);
      await res.arrayBuffer();
    }
    expect((await http(`${stack.apiUrl}/docs/index.html`)).status).toBe(404);
  });
});

describe('/admin/queues', () => {
  const queuesApi = () => `${stack.apiUrl}/admin/queues/api/queues`;

  it('answers 401 with a Basic challenge, in the envelope, without the operator token or with a wrong one', async () => {
    for (const authorization of [
      undefined,
      basic('ops', 'wrong-token-wrong-token'),
      basic('ops', '%zz'),
      `Bearer ${tenant.accessToken}`,
      'Basic %%%',
    ]) {
      for (const url of [`${stack.apiUrl}/admin/queues`, queuesApi()]) {
        const res = await http(url, { headers: authorization ? { authorization } : {} });
        expectEnvelope(res, 401, 'UNAUTHORIZED');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
      }
    }
  });

  it('lists every BullMQ queue of the api prefix with the token as Basic password or Bearer', async () => {
    for (const authorization of [basic('anyone', stack.opsToken), `Bearer ${stack.opsToken}`]) {
      const res = await http(`${queuesApi()}?activeQueue=&status=latest&page=1`, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.body.queues.map((q: { name: string }) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
      for (const q of res.body.queues) expect(q).toMatchObject({ readOnlyMode: false, allowRetries: true });
    }
    const ui = await http(`${stack.apiUrl}/admin/queues`, { headers: { authorization: basic('ops', stack.opsToken) } });
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('<base href="/admin/queues/"');
  });

  it('is read-only except for retrying failed jobs', async () => {
    const authorization = basic('ops', stack.opsToken);
    for (const [method, path] of [
      ['PUT', '/schedules/pause'],
      ['PUT', '/schedules/empty'],
      ['PUT', '/schedules/clean/completed'],
      ['POST', '/schedules/add'],
      ['PUT', '/bookings/some-job/clean'],
    ] as const) {
      const res = await http(`${queuesApi()}${path}`, { method, headers: { authorization } });
      expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    }
    const retry = await http(`${queuesApi()}/schedules/retry/failed`, { method: 'PUT', headers: { authorization } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ retried: 0 });
    expect(await stack.queues.schedules.isPaused()).toBe(false);
  });
});

describe('GET /metrics (api)', () => {
  it('exposes process metrics, request durations by route template and status, and queue depths', async () => {
    const scrape = async () => {
      const res = await http(`${stack.apiUrl}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return { text: res.text, m: parsePrometheusText(res.text) };
    };
    const before = await scrape();
    await http(`${stack.apiUrl}/api/v1/crew/config/company`, { token: tenant.accessToken });
    await http(`${stack.apiUrl}/api/v1/crew/schedules/not-a-uuid`, { token: tenant.accessToken });
    await http(`${stack.apiUrl}/api/v1/crew/config/company`);
    await http(`${stack.apiUrl}/no/such/path/123`);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      (sampleValue(after.m, 'crew_http_request_duration_seconds_count', labels) ?? 0) -
      (sampleValue(before.m, 'crew_http_request_duration_seconds_count', labels) ?? 0);
    expect(delta({ method: 'GET', route: '/api/v1/crew/config/company', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/api/v1/crew/config/company', status: '401' })).toBe(1);
    expect(delta({ method: 'GET', route: '/api/v1/crew/schedules/:schedule_id', status: '403' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    expect(
      sampleValue(after.m, 'crew_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/ops/v1/airlines',
        status: '201',
      }),
    ).toBe(1);
    // Concrete ids never become label values.
    expect(after.text).not.toContain('not-a-uuid');
    expect(after.m.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(after.m.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(after.m.get('crew_http_request_duration_seconds')?.type).toBe('histogram');
    for (const queue of QUEUE_NAMES)
      expect(sampleValue(after.m, 'crew_queue_jobs', { queue, state: 'waiting', service: 'api' })).toBe(0);
  });
});
