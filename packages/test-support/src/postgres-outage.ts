import { generateRoster, ROSTER_SIZES } from '@crew/roster-generator';
import { http, onboard } from './client';
import type { Stack } from './stack';
import { expectUndisturbedRun, undisturbedRun } from './undisturbed-run';
import { waitFor } from './wait';
import { exited, hasStarted, spawnWorker } from './worker-process';

/** How a test takes Postgres away from the services and gives it back. */
export interface PostgresOutage {
  down(): Promise<void>;
  up(): Promise<void>;
}

export interface OutageScenario {
  stack: Stack;
  outage: PostgresOutage;
  /** The api probed while Postgres is down (its database connections go through the outage). */
  apiUrl: string;
  /** Extra environment of the worker child (e.g. its DATABASE_URL through a relay). */
  workerEnv?: Record<string, string>;
  /** How long Postgres stays away (after the probes). */
  downMs: number;
  carrier: string;
  seed: number;
}

const SCOPES = 'events:read events:write schedules:read schedules:write';

/**
 * Postgres goes away while the real worker (a child process) diffs an M roster, then comes back. The worker
 * keeps running, the interrupted job is retried, and the schedule ends with exactly the action items of an
 * undisturbed run; meanwhile the api and the worker report the outage (503), not crash or answer 500.
 */
export async function postgresOutageScenario(s: OutageScenario): Promise<void> {
  const { stack } = s;
  const t = await onboard(stack, {
    name: `Outage Air ${s.carrier}`,
    carrier: s.carrier,
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const probe = (path: string) => http(`${s.apiUrl}${path}`, { token: t.accessToken });
  // Also fetches the auth service's keys into the probed api's cache, so the outage probe passes authentication.
  expect((await probe('/api/v1/crew/config/company')).status).toBe(200);
  expect((await http(`${s.apiUrl}/readyz`)).status).toBe(200);

  const roster = generateRoster({ ...ROSTER_SIZES.M, seed: s.seed, startDate: '2027-03-01', carrier: s.carrier });
  const expected = undisturbedRun(roster);

  const worker = spawnWorker(stack, s.workerEnv);
  try {
    await hasStarted(worker);
    const workerPort = Number(/"port":(\d+)[^\n]*worker consuming/.exec(worker.output.join(''))?.[1]);
    const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
      token: t.accessToken,
      method: 'POST',
      body: roster,
    });
    expect(res.status).toBe(202);
    const id = res.body.schedule_id as string;
    const status = async () =>
      (
        await stack.database.db
          .selectFrom('schedules')
          .select('status')
          .where('schedule_id', '=', id)
          .executeTakeFirstOrThrow()
      ).status;
    await waitFor(async () => (await status()) === 'PROCESSING', 60_000, 'PROCESSING');

    // Mid-roster: the worker holds its airline-lock connection and is diffing.
    await s.outage.down();
    const downSince = Date.now();
    try {
      const ready = await http(`${s.apiUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', checks: { postgres: false } });
      const call = await probe('/api/v1/crew/config/company');
      expect(call.status).toBe(503);
      expect(call.body).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: [] },
        status: 503,
      });
      expect(Number(call.headers.get('retry-after'))).toBeGreaterThan(0);
      const workerReady = await http(`http://127.0.0.1:${workerPort}/readyz`);
      expect(workerReady.status).toBe(503);
      expect(workerReady.body.checks.postgres).toBe(false);
      // The outage's length is the scenario's input (downMs), not a wait for something to happen.
      await new Promise((r) => setTimeout(r, Math.max(0, s.downMs - (Date.now() - downSince))));
    } finally {
      await s.outage.up();
    }
    // Polls of the test's own pool may meet the restart too.
    await waitFor(
      async () => ['BOOKING', 'COMPLETED'].includes(await status().catch(() => '')),
      180_000,
      'the schedule to be processed after the outage',
    );
    await waitFor(
      async () => (await http(`${s.apiUrl}/readyz`).catch(() => ({ status: 0 }))).status === 200,
      30_000,
      'the api to be ready again',
    );
    expect((await probe('/api/v1/crew/config/company')).status).toBe(200);

    // The worker lived through it, and the outage did hit its job (which BullMQ retried).
    expect(worker.exitCode).toBeNull();
    expect(worker.signalCode).toBeNull();
    expect(worker.output.join('')).toContain('job failed');
    await expectUndisturbedRun(stack.database.db, id, expected);
  } finally {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
    const exit = await exited(worker);
    if (exit.code !== 0) console.error(`worker exit ${JSON.stringify(exit)}\n${worker.output.join('').slice(-4000)}`);
  }
}
