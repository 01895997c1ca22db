export * from './config';
export * from './logger';
export * from './errors';
export * from './route';
export * from './http';
export * from './shutdown';
export * from './credentials';
export * from './cursor';
