export * from './types';
export { extractDocumentMetadata } from './engine';
export { toOntologies, conceptId, DOCUMENT_METADATA_CONCEPT } from './ontologies';
export { buildOntologyInput, type TreeNode, type BuildInputOptions } from './node-tree';
export { uuidV5, CONCEPT_NAMESPACE } from './uuid';
