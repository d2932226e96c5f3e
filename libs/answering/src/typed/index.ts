export * from './text';
export * from './numbers';
export * from './dates';
export * from './booleans';
export * from './enums';
export * from './lists';
export * from './data-value';
