export * from './connection';
export * from './catalog';
export * from './queues';
export * from './relay';
export * from './fairness';
export * from './deadline';
export * from './metrics';
