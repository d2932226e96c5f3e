export * from './request-context';
export * from './logger';
export * from './nest-logger';
export * from './metrics';
export * from './health';
export * from './observability.module';
