/** Tests leave no BullMQ (or other Redis) keys behind: each test stack removes its prefix when it closes. */
import { createRedis } from '@crew/queue';
import { http, onboard, onePairingRoster, startStack, waitForSchedule } from '@crew/test-support';

it('a stack that ran a roster through its queues leaves no key of its prefix in Redis', async () => {
  const stack = await startStack('hygiene', { worker: true });
  const prefix = stack.config.queuePrefix;
  const t = await onboard(stack, {
    carrier: 'HY',
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    method: 'POST',
    token: t.accessToken,
    body: onePairingRoster(),
  });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const redis = createRedis(stack.config.redisUrl);
  if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
  try {
    expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    await stack.close();
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
  } finally {
    await stack.close();
    redis.disconnect();
  }
});
