export * from './filter-limits';
export * from './triggers';
export * from './content-patterns';
export * from './filter-validation';
export * from './filter-matching';
export * from './rules-client';
