import { createServer, type Server } from 'node:http';
import { createApiApp } from '@crew/api';
import { createDb, SERVING_DB, type DbOptions } from '@crew/db';
import { createLogger, listen } from '@crew/platform';
import { apiDepsOf, type Stack, startStack, startTcpRelay, type TcpRelay } from '@crew/test-support';

/** A test stack and a second api that reaches its Postgres through a TCP relay the test cuts or silences. */
export interface RelayedApi {
  stack: Stack;
  pgRelay: TcpRelay;
  apiUrl: string;
  close(): Promise<void>;
}

/** `pool`: the relayed api's pool settings over SERVING_DB (the api's own). */
export async function startRelayedApi(name: string, pool: Partial<DbOptions>): Promise<RelayedApi> {
  const stack = await startStack(name);
  const target = new URL(stack.config.databaseUrl);
  const pgRelay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  target.host = `127.0.0.1:${pgRelay.port}`;
  const relayedDb = createDb(target.toString(), { ...SERVING_DB, ...pool });
  const api: Server = createServer(
    createApiApp(apiDepsOf(stack, { db: relayedDb, logger: createLogger('api', 'fatal') })),
  );
  const apiUrl = `http://127.0.0.1:${await listen(api, 0, '127.0.0.1')}`;
  return {
    stack,
    pgRelay,
    apiUrl,
    async close() {
      api.closeAllConnections();
      await new Promise((r) => api.close(r));
      await pgRelay.restore().catch(() => undefined);
      await relayedDb.destroy();
      await pgRelay.close();
      await stack.close();
    },
  };
}
