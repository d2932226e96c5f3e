import { randomUUID } from 'node:crypto';
import type { Citation } from '@docintel/answering';
import { linePositionsOf, type DocumentStatementDto, type PassageDto } from '@docintel/contracts';

/** Longest text of a citation kept in an annotation. */
const MAX_CONTENT = 2000;

export interface CitedAnnotation {
  id: string;
  data: DocumentStatementDto;
}

/**
 * Turns a reader's citations (character spans of passages) into DOCUMENT_STATEMENT annotations:
 * one per document node the span touches (a row passage cited in one cell gives that cell), with
 * the node's positions from the tree. Citations of passages the reader was not given are dropped.
 */
export function citationsToAnnotations(citations: Citation[], passages: PassageDto[]): CitedAnnotation[] {
  const byId = new Map(passages.map((p) => [p.id, p]));
  const seen = new Set<string>();
  const out: CitedAnnotation[] = [];
  for (const c of citations) {
    const passage = byId.get(c.passageId);
    if (!passage) continue;
    const start = Math.max(0, Math.min(c.start, passage.text.length));
    const end = Math.max(start, Math.min(c.end, passage.text.length));
    const touched = passage.segments.filter((s) => s.start < Math.max(end, start + 1) && s.end > start);
    for (const segment of touched.length ? touched : passage.segments.slice(0, 1)) {
      const key = `${segment.nodeId}:${start}:${end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const from = Math.max(start, segment.start) - segment.start;
      const to = Math.min(end, segment.end) - segment.start;
      const content = passage.text.slice(segment.start, segment.end).trim() || passage.text.slice(start, end);
      const quote = passage.text.slice(Math.max(start, segment.start), Math.min(end, segment.end)).trim();
      out.push({
        id: randomUUID(),
        data: {
          type: 'DOCUMENT_STATEMENT',
          content: content.length > MAX_CONTENT ? `${content.slice(0, MAX_CONTENT - 1)}…` : content,
          documentName: passage.fileName,
          documentId: passage.fileId,
          positions: linePositionsOf(segment.positions, segment.end - segment.start, from, Math.max(from, to)),
          nodeId: segment.nodeId,
          ...(quote && quote.length < content.length && { quote: quote.slice(0, MAX_CONTENT) }),
        },
      });
    }
  }
  return out;
}

/** The passage text a citation was read from, for `sourcedContent`. */
export function sourcedContent(citations: Citation[], passages: PassageDto[]): string {
  const first = citations.map((c) => passages.find((p) => p.id === c.passageId)).find(Boolean);
  return first ? first.text.slice(0, MAX_CONTENT) : '';
}
