import type { OntologyInput } from '../types';

/** An engine input with sensible defaults: a PDF with no headings and no embedded metadata. */
export function anInput(overrides: Partial<OntologyInput> = {}): OntologyInput {
  return { fileName: 'paper.pdf', mediaType: 'application/pdf', text: '', headings: [], ...overrides };
}

/** A few paragraphs of English prose about one topic, for the language, keyphrase and description rules. */
export const PROSE = [
  'Table structure recognition turns an image of a table into rows, columns and cells. It is a hard problem because tables in scanned documents have merged cells, missing rules and rotated headers.',
  'We propose a table structure recognition model that predicts cell boundaries directly. The model reads the table image and writes a structure sequence, which a decoder turns into cells.',
  'On public benchmarks the table structure recognition model improves accuracy over earlier methods, and it runs fast on a single CPU core. Table structure recognition also helps document conversion.',
].join('\n\n');
