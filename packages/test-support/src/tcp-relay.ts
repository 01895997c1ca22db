import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  port: number;
  /** Drops every connection and stops listening: the target looks down. */
  cut: () => Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to host:port that a test can cut and restore, to play an outage of Redis (or anything). */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  const listenOn = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const port = await listenOn(0);
  const cut = async () => {
    if (!server.listening) return;
    const closed = new Promise((r) => server.close(r));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return { port, cut, restore: async () => void (await listenOn(port)), close: cut };
}

/** host/port of a redis:// URL. */
export function redisTarget(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 6379) };
}
