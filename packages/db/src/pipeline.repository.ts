/*
 * The schedule pipeline's repositories, one module per aggregate; `pipelineRepo` re-exports them for the
 * callers that use several (booking settle, runtime sweeps). New code imports the aggregate's own module.
 */
export * from './schedule-lifecycle.repository';
export * from './roster-state.repository';
export * from './diff-write.repository';
export * from './airline-policy.repository';
