/** The keys of additionalInfos the pipeline writes. */
export const PROGRESS_KEYS = {
  embedding: 'node_embedding',
  passages: 'passage_indexing',
  formulas: 'formula_augmentation',
  ontologies: 'ontologies',
  parsing: 'parsing',
  /** Set by versions before the steps gated SUCCESS, when a committed tree could not be announced; removed on the next announcement. */
  announce: 'pipeline',
} as const;
