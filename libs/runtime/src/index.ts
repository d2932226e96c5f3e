export * from './service-env';
export * from './run-service';
export * from './process-safety-net';
export * from './ping.handler';
export * from './service-module';
export * from './periodic-task';
