export * from './reader';
export * from './typed';
export * from './llm';
export * from './builtin';
export * from './onnx';
