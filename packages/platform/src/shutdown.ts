import type { Logger } from './logger';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/**
 * SIGTERM/SIGINT: run the steps in order within the deadline, then exit 0 (1 if a step failed or the
 * deadline passed). A second signal forces an immediate exit.
 */
export function installShutdown(
  logger: Logger,
  deadlineMs: number,
  steps: ShutdownStep[],
  exit: (code: number) => void = (code) => process.exit(code),
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const shutdown = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      let code = 0;
      const timer = setTimeout(() => {
        logger.error({ deadlineMs }, 'shutdown deadline passed; forcing exit');
        exit(1);
      }, deadlineMs);
      timer.unref();
      for (const step of steps) {
        try {
          await step.run();
          logger.info({ step: step.name }, 'shutdown step done');
        } catch (err) {
          code = 1;
          logger.error({ err, step: step.name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      logger.info('stopped');
      exit(code);
    })();
    return running;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    logger.info({ signal }, 'shutting down');
    void shutdown();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return shutdown;
}
