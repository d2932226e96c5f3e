export * from './nats.options';
export * from './nats-connection';
export * from './rpc-handler.decorator';
export * from './durable-worker.decorator';
export * from './rpc-server';
export * from './rpc-client';
export * from './jetstream';
export * from './messaging.module';
