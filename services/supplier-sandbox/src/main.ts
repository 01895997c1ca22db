/**
 * Entry point of the supplier sandbox process. Importing this module (the package's main) only exposes the
 * API below; the server starts when the file is run directly (`tsx services/supplier-sandbox/src/main.ts`).
 */
import { createLogger, installShutdown, loadConfig } from '@crew/platform';
import { startSandbox } from './server';

export * from './index';

export async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('supplier-sandbox', config.logLevel);
  const controlApi = config.nodeEnv !== 'production';
  const running = await startSandbox({
    port: config.sandboxPort,
    host: '0.0.0.0',
    latencyMs: config.sandboxLatencyMs,
    jitterMs: config.sandboxLatencyJitterMs,
    controlApi,
    logger,
  });
  logger.info(
    {
      port: running.port,
      control_api: controlApi,
      latency_ms: config.sandboxLatencyMs,
      jitter_ms: config.sandboxLatencyJitterMs,
    },
    'supplier sandbox listening',
  );
  // Half the deadline for draining requests, leaving the rest for the forced close and the exit.
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: () => running.close(Math.floor(config.shutdownDeadlineMs / 2)) },
  ]);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
