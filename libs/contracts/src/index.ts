export * from './errors';
export * from './rpc';
export * from './subjects';
export * from './validation';
export * from './paging';
export * from './identifiers';
export * from './providers';
