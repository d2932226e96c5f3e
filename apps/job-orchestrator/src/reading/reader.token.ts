/** The answering engine (a @docintel/answering Reader) the units ask. */
export const READER = Symbol('READER');
/** An optional cross-encoder (a @docintel/answering PassageReranker) that reorders retrieved passages; null when none is configured. */
export const RERANKER = Symbol('RERANKER');
