import { findAuthors } from './authors';
import { findDescription } from './description';
import { findDoi } from './doi';
import { groupEntities } from './entities';
import { extractKeyphrases } from './keyphrases';
import { findLanguage } from './language';
import { analyse } from './nlp';
import { findPublicationDate } from './dates';
import { findTitle } from './title';
import { DEFAULT_OPTIONS, type OntologyInput, type OntologyOptions, type OntologyResult } from './types';

/** The NLP model is English; on other languages its tags are noise, so keyphrases and entities are left out. */
const NLP_LANGUAGES = new Set(['en']);

/**
 * The built-in metadata and ontology engine: offline and deterministic (the same input always gives
 * the same result, in the same order). Work is bounded by `options`: the text is cut to
 * `maxTextChars`, the tagger sees `maxNlpChars`.
 */
export function extractDocumentMetadata(input: OntologyInput, options: OntologyOptions = {}): OntologyResult {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  const text = input.text.length > opts.maxTextChars ? input.text.slice(0, opts.maxTextChars) : input.text;
  const bounded: OntologyInput = { ...input, text };
  const result: OntologyResult = { keyphrases: [], entities: [], explanations: {} };

  const title = findTitle(bounded);
  result.title = title.value;
  result.explanations.title = title.explanation;

  const authors = findAuthors(bounded, title.value);
  if (authors) {
    result.authors = authors.value;
    result.explanations.authors = authors.explanation;
  }

  const description = findDescription(bounded, text, title.value);
  if (description) {
    result.description = description.value;
    result.explanations.description = description.explanation;
  }

  const doi = findDoi(bounded, text);
  if (doi) {
    result.doi = doi.value;
    result.explanations.doi = doi.explanation;
  }

  const date = findPublicationDate(bounded, text);
  if (date) {
    result.publicationDate = date.value;
    result.explanations.publicationDate = date.explanation;
  }

  const language = findLanguage(bounded, text);
  if (language) {
    result.language = language.value;
    result.explanations.language = language.explanation;
  }

  if (!language || NLP_LANGUAGES.has(language.value)) {
    const analysis = analyse(text.slice(0, opts.maxNlpChars));
    result.keyphrases = extractKeyphrases(analysis.sentences, opts.maxKeyphrases);
    result.entities = groupEntities(analysis.mentions, opts.maxEntities);
  }
  return result;
}
