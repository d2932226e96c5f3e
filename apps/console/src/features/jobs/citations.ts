/**
 * Citations: the DOCUMENT_STATEMENT annotations a job's answers name (by `referenceIds`), and the
 * way each is described; the link to the document view is documentLink (router/document-links.ts).
 */
import type { Annotation, Schemas } from '@docintel/api-client';
import type { DocumentTarget } from '../../router/document-links';

export type DocumentStatement = Schemas['DocumentStatementDto'];

/** Where a citation is, in words: "page 2", "Sheet1, row 4, column 2", "lines 6–8", "paragraph 12". */
export function describeTarget(target: DocumentTarget): string | null {
  if (target.page !== undefined) return `page ${target.page}`;
  if (target.row !== undefined && target.col !== undefined) {
    return `${target.sheet ? `${target.sheet}, ` : ''}row ${target.row + 1}, column ${target.col + 1}`;
  }
  if (target.line !== undefined) return target.lineEnd !== undefined ? `lines ${target.line}–${target.lineEnd}` : `line ${target.line}`;
  // Paragraphs are 0-based in positions, counted from 1 for people.
  if (target.paragraph !== undefined) {
    return target.paragraphEnd !== undefined
      ? `paragraphs ${target.paragraph + 1}–${target.paragraphEnd + 1}`
      : `paragraph ${target.paragraph + 1}`;
  }
  return null;
}

/** A reference as results give it: a plain id (agent) or `{ id, entityType }` (the other kinds). */
export type Reference = string | { id: string };

/** The annotations `refs` name, in their order, each once; ids without an annotation are left out. */
export function citationsFor(refs: readonly Reference[] | undefined, annotations: readonly Annotation[] | undefined): Annotation[] {
  if (!refs?.length || !annotations?.length) return [];
  const byId = new Map(annotations.map((a) => [a.id.id, a]));
  const seen = new Set<string>();
  const out: Annotation[] = [];
  for (const ref of refs) {
    const id = typeof ref === 'string' ? ref : ref.id;
    const annotation = byId.get(id);
    if (annotation && !seen.has(id)) {
      seen.add(id);
      out.push(annotation);
    }
  }
  return out;
}
