/**
 * Diagnostics only (BENCH_RECORD_REFUSALS=1): a byte-level TCP relay between the worker and the supplier
 * sandbox. Bytes pass through unchanged (no re-framing of HTTP), and each connection keeps the last bytes
 * the worker sent, so when the sandbox answers 4xx the request bytes that caused it can be shown. It adds a
 * hop to every supplier call: booking throughput measured through it is not the product's.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Refusal {
  status: number;
  /** The last bytes the worker had sent on that connection when the answer started (latin1, CR/LF shown). */
  requestTail: string;
  response: string;
}

export interface RefusalProxy {
  url: string;
  refusals: Refusal[];
  /** Answers per status class seen on the relay, e.g. {"201": 100, "400": 3}. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

const TAIL = 3000;

export function startRefusalProxy(port: number, target: string): Promise<RefusalProxy> {
  const to = new URL(target);
  const refusals: Refusal[] = [];
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ host: to.hostname, port: Number(to.port) });
    sockets.add(client);
    sockets.add(upstream);
    let sent = Buffer.alloc(0);
    client.on('data', (d: Buffer) => {
      sent = Buffer.concat([sent, d]);
      if (sent.length > TAIL) sent = sent.subarray(sent.length - TAIL);
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      const text = d.toString('latin1');
      for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) {
        const status = Number(m[1]);
        counts.set(String(status), (counts.get(String(status)) ?? 0) + 1);
        if (status >= 400 && status < 500 && refusals.length < 20) {
          refusals.push({
            status,
            requestTail: sent.toString('latin1').replace(/\r/g, '\\r').replace(/\n/g, '\\n'),
            response: text.slice(m.index ?? 0, (m.index ?? 0) + 1500),
          });
        }
      }
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        refusals,
        counts,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      }),
    );
  });
}
