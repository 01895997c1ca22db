import { createServer, type Server } from 'node:http';
import { closeServer, listen } from '@crew/platform';
import { createSandboxApp, type SandboxApp, type SandboxOptions } from './app';

export interface StartOptions extends SandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningSandbox extends SandboxApp {
  server: Server;
  port: number;
  /** e.g. `http://127.0.0.1:41234`, for `createSandboxSuppliers({ baseUrl })`. */
  baseUrl: string;
  /** Drops withheld answers, then closes the server (open requests are cut after `deadlineMs`). */
  close: (deadlineMs?: number) => Promise<void>;
}

/** Starts a sandbox on a real port: the process entry point and in-process tests use the same path. */
export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const sandboxApp = createSandboxApp(options);
  const server = createServer(sandboxApp.app);
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    ...sandboxApp,
    server,
    port,
    baseUrl: `http://${urlHost}:${port}`,
    close: async (deadlineMs = 1000) => {
      sandboxApp.releaseWithheld();
      await closeServer(server, deadlineMs);
    },
  };
}
