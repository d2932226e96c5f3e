import type { DocumentStatementDto, PassageDto } from '@docintel/contracts';
import type { AgentEvidence } from './types';

/** What a handle points at: a passage a tool returned, or a statement a sub-job cited. */
export type LedgerSource = { kind: 'passage'; passage: PassageDto } | { kind: 'statement'; statement: DocumentStatementDto };

const HANDLE = /^\[?\s*S(\d+)\s*\]?$/i;
const HANDLE_MARKERS = /\[\s*(S\d+(?:\s*,\s*S\d+)*)\s*\]/gi;

/**
 * The sources a run has seen, each under a short handle ("S1", "S2", …) that a model can cite
 * instead of copying ids. The same passage or statement seen twice keeps its first handle, so
 * that a citation means the same thing for the whole run.
 */
export class SourceLedger {
  private readonly sources: LedgerSource[] = [];
  private readonly handles = new Map<string, string>();

  addPassage(passage: PassageDto): string {
    return this.add(`p\u0000${passage.fileId}\u0000${passage.id}`, { kind: 'passage', passage });
  }

  addStatement(statement: DocumentStatementDto): string {
    const s = statement;
    return this.add(`s\u0000${s.documentId}\u0000${s.nodeId ?? ''}\u0000${s.content}`, { kind: 'statement', statement });
  }

  /** The source of a handle ("S3", "s3" or "[S3]"), if this run gave it out. */
  get(handle: string): LedgerSource | undefined {
    const m = HANDLE.exec(handle.trim());
    return m ? this.sources[Number(m[1]) - 1] : undefined;
  }

  /** The handles cited in a text as "[S3]" or "[S3, S5]", in order, each once. */
  static handlesIn(text: string): string[] {
    const found = new Set<string>();
    for (const m of text.matchAll(HANDLE_MARKERS)) for (const h of m[1].split(',')) found.add(h.trim().toUpperCase());
    return [...found];
  }

  /**
   * The evidence of the cited handles, each source once; handles this run never gave out are
   * skipped. A passage is cited where it contains one of `quotes` (the answer's values), as a
   * whole otherwise.
   */
  evidence(handles: string[], quotes: string[] = []): AgentEvidence[] {
    const seen = new Set<LedgerSource>();
    const evidence: AgentEvidence[] = [];
    for (const handle of handles) {
      const source = this.get(handle);
      if (!source || seen.has(source)) continue;
      seen.add(source);
      if (source.kind === 'statement') {
        evidence.push({ kind: 'statement', statement: source.statement });
        continue;
      }
      const { passage } = source;
      const span = quoteSpan(passage.text, quotes) ?? { start: 0, end: passage.text.length };
      evidence.push({ kind: 'passage', passage, ...span });
    }
    return evidence;
  }

  private add(key: string, source: LedgerSource): string {
    const known = this.handles.get(key);
    if (known) return known;
    this.sources.push(source);
    const handle = `S${this.sources.length}`;
    this.handles.set(key, handle);
    return handle;
  }
}

/** Where the first quote occurs in the text, ignoring case (a regular expression keeps the offsets of the text itself). */
function quoteSpan(text: string, quotes: string[]): { start: number; end: number } | undefined {
  for (const quote of quotes) {
    const q = quote.trim();
    if (q.length < 2 || q.length > 500) continue;
    const m = new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu').exec(text);
    if (m) return { start: m.index, end: m.index + m[0].length };
  }
  return undefined;
}
