/**
 * How big a rule filter may be. A filter travels in every rules reply (one rule, the list, each
 * evaluation) and is matched against every node of every batch, so its size is bounded where it is
 * written: a reply must stay far below the NATS max payload (1 MiB by default) even when it carries
 * every rule of a namespace, and matching must stay cheap on the pipeline's event loop.
 * docs/rules.md documents these numbers; change them together.
 */
export const FILTER_LIMITS = {
  /** Items in one array key (mime_types, node_types, content_patterns, ...). */
  maxItems: 100,
  /** Characters in one string (a media type, a node type, a pattern). */
  maxStringLength: 1000,
  /** The whole filter serialised as JSON (UTF-8 bytes). */
  maxFilterBytes: 16 * 1024,
  /**
   * RE2 instructions one content pattern compiles to. Matching costs up to (text length x
   * instructions) when the automaton cannot be cached, so this bounds the worst case per node.
   * Ordinary patterns compile to a few dozen; `[a-z]{1000}` alone is about 1000.
   */
  maxPatternProgramSize: 1000,
  /** RE2 instructions of all content patterns of one filter together. */
  maxFilterProgramSize: 4000,
  /** A node's text is matched against content patterns on its first this many characters only. */
  maxMatchedTextLength: 64 * 1024,
} as const;
