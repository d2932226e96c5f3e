import type { AnswerTypeDto } from '@docintel/contracts';
import type { ReaderPassage } from '../../reader';

/**
 * Passages for the reader's unit tests: a paragraph of one file, numbered in the order made, with
 * what a test sets in `extra` (node type, headings, file name).
 */
export function passageMaker(fileName = 'doc.pdf', idPrefix = 'p'): (text: string, extra?: Partial<ReaderPassage>) => ReaderPassage {
  let seq = 0;
  return (text, extra = {}) => ({
    id: `${idPrefix}${++seq}`,
    fileId: 'f1',
    fileName,
    nodeType: 'paragraph',
    text,
    headings: [],
    score: 1,
    ...extra,
  });
}

/** An answer type, single-valued unless said otherwise. */
export const answerType = (t: Partial<AnswerTypeDto> & Pick<AnswerTypeDto, 'dataType'>): AnswerTypeDto => ({ multiValued: false, ...t });
