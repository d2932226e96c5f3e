export * from './types';
export * from './table-shape';
export * from './column-matching';
export * from './cell-values';
export * from './entity-rows';
