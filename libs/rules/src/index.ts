export * from './triggers';
export * from './filter-validation';
export * from './filter-matching';
export * from './rules-client';
