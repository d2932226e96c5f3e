export * from './span-decoding';
export * from './onnx-reader';
export * from './onnx-reranker';
export * from './onnx-answering-env';
