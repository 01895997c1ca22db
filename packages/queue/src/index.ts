export * from './connection';
export * from './catalog';
export * from './queues';
export * from './relay';
export * from './fairness';
export * from './lanes';
export * from './deadline';
export * from './metrics';
