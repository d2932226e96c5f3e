/** A passage of a file to index: a document node and its text. */
export interface Passage {
  nodeId: string;
  text: string;
}

export interface PassageSearchOptions {
  /** How many passages to return at most (1..1000). */
  limit: number;
  /** Only passages of these files; all of the namespace's files when absent. */
  fileIds?: string[];
}

export interface PassageHit {
  nodeId: string;
  fileId: string;
  /** The engine's relevance score, higher is better; comparable only within one result list. */
  score: number;
}

/**
 * A transaction of the store the caller also writes to, for an engine that can join it (the
 * PostgreSQL engine takes a TypeORM EntityManager); an engine with a store of its own ignores it.
 */
export type StoreTransaction = unknown;

/**
 * Lexical (keyword) passage search, per namespace. One interface so that the built-in PostgreSQL
 * engine can be swapped for a distributed one (OpenSearch, Elasticsearch) by configuration.
 * Every operation takes the namespace: no call can read or change another namespace's passages.
 */
export interface PassageRetriever {
  /** Replaces everything indexed for this file with these passages (an empty list removes it). */
  index(namespaceId: string, fileId: string, passages: Passage[]): Promise<void>;
  /**
   * Adds these passages to the file, replacing those with the same node ids and keeping the file's
   * others: the write of one batch of a document indexed in several batches.
   */
  add(namespaceId: string, fileId: string, passages: Passage[], transaction?: StoreTransaction): Promise<void>;
  /** Removes these passages of the file (node ids it does not have are ignored). */
  removePassages(namespaceId: string, fileId: string, nodeIds: string[]): Promise<void>;
  /** Removes every passage of this file. */
  remove(namespaceId: string, fileId: string): Promise<void>;
  /** The best passages for the query, best first. */
  search(namespaceId: string, query: string, options: PassageSearchOptions): Promise<PassageHit[]>;
}
