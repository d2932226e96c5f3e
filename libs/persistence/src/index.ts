export * from './data-source';
export * from './persistence.module';
