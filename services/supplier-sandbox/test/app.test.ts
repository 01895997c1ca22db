import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { start } from './support';

describe('control API switch', () => {
  it('does not mount /_control when controlApi is false; supplier routes stay', async () => {
    const sb = await start({ controlApi: false });
    try {
      for (const [method, path] of [
        ['POST', '/_control/faults'],
        ['DELETE', '/_control/faults'],
        ['POST', '/_control/reset'],
        ['GET', '/_control/reservations'],
        ['POST', '/_control/clock'],
      ] as const) {
        const res = await sb.call(method, path, method === 'POST' ? {} : undefined);
        expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'NOT_FOUND']);
      }
      expect((await sb.call('GET', '/hotels/GDS-LHR-001')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('answers 405 with Allow for a known path under another method', async () => {
    const sb = await start();
    try {
      const res = await fetch(`${sb.baseUrl}/hotels`, { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('GET');
    } finally {
      await sb.close();
    }
  });
});

describe('latency', () => {
  it('delays supplier calls by latencyMs, not /healthz or /_control', async () => {
    const sb = await start({ latencyMs: 250 });
    const timed = async (method: string, path: string) => {
      const t = Date.now();
      const res = await sb.call(method, path);
      return { status: res.status, ms: Date.now() - t };
    };
    try {
      const supplier = await timed('GET', '/hotels?airport_code=LHR');
      expect(supplier.status).toBe(200);
      expect(supplier.ms).toBeGreaterThanOrEqual(245);
      expect((await timed('GET', '/flights/search?from=LHR&to=JFK&date=2025-07-01')).ms).toBeGreaterThanOrEqual(245);
      expect((await timed('GET', '/healthz')).ms).toBeLessThan(200);
      expect((await timed('GET', '/_control/reservations')).ms).toBeLessThan(200);
    } finally {
      await sb.close();
    }
  });

  it('keeps jittered latency within latency ± jitter', async () => {
    const sb = await start({ latencyMs: 150, jitterMs: 100 });
    try {
      for (let i = 0; i < 4; i++) {
        const t = Date.now();
        await sb.call('GET', '/hotels/GDS-LHR-001');
        const ms = Date.now() - t;
        expect(ms).toBeGreaterThanOrEqual(45);
        expect(ms).toBeLessThan(400);
      }
    } finally {
      await sb.close();
    }
  });
});

describe('main.ts process', () => {
  it('listens on SANDBOX_PORT, logs JSON, hides /_control in production, exits 0 on SIGTERM', async () => {
    const root = join(__dirname, '../../..');
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(__dirname, '../src/main.ts')], {
      env: { ...process.env, SANDBOX_PORT: '0', NODE_ENV: 'production', OPS_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines: Array<Record<string, unknown>> = [];
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('sandbox did not start')), 15000);
        createInterface({ input: child.stdout }).on('line', (line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          lines.push(entry);
          if (entry.msg === 'supplier sandbox listening') {
            clearTimeout(timer);
            resolve(entry.port as number);
          }
        });
      });
      expect(lines[lines.length - 1]).toMatchObject({ level: 'info', service: 'supplier-sandbox', control_api: false });
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/_control/reservations`)).status).toBe(404);
      expect((await fetch(`${base}/hotels/GDS-LHR-001`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
