import type { AnswerTypeDto, DataValue } from '@docintel/contracts';

/**
 * What every answering engine (the built-in extractive reader, a local ONNX model, an LLM) is given
 * and returns. The job engine retrieves the passages, asks a Reader, and turns its citations
 * (character spans of passages) into annotations with positions from the node tree.
 */

/** A retrieved passage: the text of one document node (a row's cells joined with " | "). */
export interface ReaderPassage {
  /** Stable id of the passage (its node id); citations name it. */
  id: string;
  fileId: string;
  fileName: string;
  /** The node type it was built from: paragraph, heading, list_item, row, cell, ... */
  nodeType: string;
  text: string;
  /** Headings above the passage, outermost first. */
  headings: string[];
  /** Fused retrieval score, higher is better; only comparable within one list. */
  score: number;
}

/** The answer of an earlier question that this one names in inputQuestionIds. */
export interface ChainedAnswer {
  questionId: string;
  question: string;
  rawValue: string;
  found: boolean;
}

export interface ReaderQuestion {
  question: string;
  answerType: AnswerTypeDto;
  guidelines?: string;
  /** Answers of the questions this one chains on, in the order named. */
  inputs?: ChainedAnswer[];
}

/** A span of a passage the answer was read from: `start` inclusive, `end` exclusive, in UTF-16 code units. */
export interface Citation {
  passageId: string;
  start: number;
  end: number;
}

export interface ReaderAnswer {
  /** False when the reader found no answer it trusts; rawValue is then '' and value null. */
  found: boolean;
  /** The answer as written in the document (multi-valued: the values joined with "; "). */
  rawValue: string;
  /** The answer parsed into the requested answerType; null when not found or not parseable. */
  value: DataValue | null;
  /** 0..1 */
  confidence: number;
  /** One or two sentences a user can read: where the answer came from, or why none was found. */
  explanation: string;
  /** At least one when found: the spans the answer was read from. */
  citations: Citation[];
}

export interface Reader {
  /** e.g. "builtin", "local-onnx:<model folder name>", "llm:<model>". */
  readonly name: string;
  answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer>;
}

/** The answer a reader gives when it has nothing to say, with the reason. */
export const notFound = (explanation: string, confidence = 0): ReaderAnswer => ({
  found: false,
  rawValue: '',
  value: null,
  confidence,
  explanation,
  citations: [],
});
