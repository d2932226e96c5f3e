export * from './request-context';
export * from './logger';
export * from './nest-logger';
export * from './metrics';
export * from './public.decorator';
export * from './health';
export * from './observability.module';
