// Its configuration classes (LlmEnv, OnnxAnsweringEnv) carry class-transformer decorators, which need the metadata API.
import 'reflect-metadata';
export * from './reader';
export * from './typed';
export * from './llm';
export * from './builtin';
export * from './onnx';
export * from './tables';
export * from './agent';
