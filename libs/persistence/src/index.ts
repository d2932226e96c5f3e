export * from './data-source';
export * from './persistence.module';
export * from './database-errors';
