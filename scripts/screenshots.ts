/**
 * Screenshots for docs/operations.md: docs/openapi-docs.png (/docs) and docs/queue-dashboard.png (/admin/queues).
 *
 *   npm run screenshots
 *
 * Needs Chromium on the PATH (Debian/Ubuntu: `apt-get install -y chromium`; or set CHROMIUM=/path/to/chrome).
 * By default it starts the same in-process stack as the tests (local Postgres and Redis, a throw-away
 * database and queue prefix), processes a few rosters so the queue board has jobs, and stops it again.
 * With API_URL and OPS_TOKEN set it photographs that running api instead (for example one `npm start` runs).
 * Not part of the test suite.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { closeServer, listen } from '@crew/platform';
import { generateRoster } from '@crew/roster-generator';
import { http, onboard, onePairingRoster, type Stack, startStack, waitForSchedule } from '@crew/test-support';

const DOCS = resolve(__dirname, '..', 'docs');
const CHROMIUM = process.env.CHROMIUM ?? 'chromium';

function shoot(url: string, file: string): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), 'crew-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--hide-scrollbars',
    `--user-data-dir=${profile}`,
    // Both pages are single-page apps that fetch their data after load: give their scripts time to run.
    '--virtual-time-budget=10000',
    `--screenshot=${file}`,
    '--window-size=1400,1000',
    url,
  ];
  return new Promise<void>((done, fail) => {
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (err) =>
      fail(new Error(`cannot run ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM): ${err.message}`)),
    );
    child.on('exit', (code) => {
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
      const size = (() => {
        try {
          return statSync(file).size;
        } catch {
          return 0;
        }
      })();
      if (code === 0 && size > 10_000) done();
      else fail(new Error(`chromium exited ${code} for ${url}; ${file} has ${size} bytes\n${stderr.slice(-2000)}`));
    });
  });
}

/**
 * A local proxy that adds the operator's Basic credentials. Credentials in the page URL would not do: the
 * board resolves its API calls against the page URL, and fetch() refuses URLs that carry credentials.
 */
async function withOperatorAuth(
  target: string,
  opsToken: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const authorization = `Basic ${Buffer.from(`ops:${opsToken}`).toString('base64')}`;
  const server = createServer((req, res) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host, authorization },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server, 1000) };
}

/** Two airlines, a few rosters each: completed schedule jobs (and bookings, where the worker books) on the board. */
async function seed(stack: Stack): Promise<void> {
  const scopes = 'events:read events:write schedules:read schedules:write';
  for (const [name, carrier] of [
    ['Demo Air', 'DA'],
    ['Example Airways', 'EX'],
  ] as const) {
    const t = await onboard(stack, { name, carrier, scopes, settings: { schedules_access: true } });
    const rosters = [
      onePairingRoster(),
      generateRoster({
        pairings: 40,
        seed: carrier.charCodeAt(0),
        startDate: '2027-03-01',
        days: 14,
        crewPool: 60,
        carrier,
      }),
    ];
    for (const roster of rosters) {
      const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
        method: 'POST',
        token: t.accessToken,
        body: roster,
      });
      if (res.status !== 202) throw new Error(`submit: ${res.status} ${res.text}`);
      await waitForSchedule(stack, t.accessToken, (res.body as { schedule_id: string }).schedule_id, 60_000);
    }
  }
}

async function main(): Promise<void> {
  let stack: Stack | null = null;
  let apiUrl = process.env.API_URL?.replace(/\/+$/, '');
  let opsToken = process.env.OPS_TOKEN ?? '';
  if (!apiUrl) {
    stack = await startStack('screenshots', { worker: true });
    apiUrl = stack.apiUrl;
    opsToken = stack.opsToken;
    await seed(stack);
  } else if (!opsToken) {
    throw new Error('API_URL is set: set OPS_TOKEN too (the queue board needs it)');
  }
  try {
    const docs = join(DOCS, 'openapi-docs.png');
    const board = join(DOCS, 'queue-dashboard.png');
    await shoot(`${apiUrl}/docs`, docs);
    const proxy = await withOperatorAuth(apiUrl, opsToken);
    try {
      await shoot(`${proxy.url}/admin/queues`, board);
    } finally {
      await proxy.close();
    }
    console.log(`saved ${docs}\nsaved ${board}`);
  } finally {
    await stack?.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
