import { connect, createServer, type Server, type Socket } from 'node:net';
import { Transform } from 'node:stream';

export interface TcpRelay {
  port: number;
  /** Drops every connection and stops listening: the target looks down. */
  cut: () => Promise<void>;
  /**
   * Stops forwarding without closing anything (a failover or partition dropping packets): open connections stay
   * open and go silent, new ones are accepted and never answered.
   */
  blackHole(): void;
  /** Listens again on the same port (after `cut`); after `blackHole`, drops the silenced connections and forwards again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to host:port that a test can cut and restore, to play an outage of Redis (or anything). */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  };
  // Forwards while the relay is not black-holed; drops what arrives while it is.
  const gate = () =>
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        done(null, silent ? undefined : chunk);
      },
    });
  const server: Server = createServer((client) => {
    track(client);
    if (silent) {
      client.resume();
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(gate()).pipe(upstream).pipe(gate()).pipe(client);
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
    silent = false;
    if (!server.listening) return;
    const closed = new Promise((r) => server.close(r));
    for (const s of sockets) s.destroy();
    await closed;
  };
  const restore = async () => {
    if (silent) {
      // What the silence swallowed cannot be replayed: those connections end, as a failed-over host's do.
      silent = false;
      for (const s of sockets) s.destroy();
    }
    if (!server.listening) await listenOn(port);
  };
  return {
    port,
    cut,
    blackHole: () => {
      silent = true;
    },
    restore,
    close: cut,
  };
}

/** host/port of a redis:// URL. */
export function redisTarget(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 6379) };
}
