import { Injectable } from '@nestjs/common';
import {
  answerFromMetadata,
  bibliographicTarget,
  formatRawValue,
  toDataValue,
  type BibliographicField,
  type MetadataSource,
  type ReaderAnswer,
} from '@docintel/answering';
import {
  FilesOntologies,
  PassagesSearch,
  type AnswerTypeDto,
  type DataValue,
  type OntologyDto,
  type PassageDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import type { JobFile } from '../jobs/job-records';
import { isTransient } from './unit-context';

/** Files whose metadata a question is checked against; a bibliographic question over more is read as any other. */
const MAX_FILES = 20;
/** Passages searched for the node where a value is written. */
const VALUE_PASSAGES = 10;
/** Words without which a question cannot be bibliographic: no metadata is fetched for the others. */
const MAY_ASK_METADATA =
  /\b(?:title|called|named|authors?|writers?|wrote|written|authored|published|issued|signed|released|dated|date|year)\b/i;
/** Confidence of a value the metadata engine found and the document shows where cited. */
const METADATA_CONFIDENCE = 0.9;

/**
 * Bibliographic questions of a QA job ("What is the title of this paper?", "Who are the authors?",
 * "Who wrote <its title>?", "When was it published?") answered from the document metadata the
 * pipeline found, as extraction does, and cited at the node that writes each value (the title
 * heading, the author line, the date line). A value the document does not show is not answered;
 * when none is shown, or the question is not such a question, the reader reads the passages.
 */
@Injectable()
export class MetadataAnswers {
  constructor(private readonly rpc: RpcClient) {}

  async answer(
    question: string,
    answerType: AnswerTypeDto,
    files: JobFile[],
    ctx: RpcContext,
  ): Promise<{ answer: ReaderAnswer; passages: PassageDto[] } | undefined> {
    if (!MAY_ASK_METADATA.test(question) || !files.length || files.length > MAX_FILES) return undefined;
    const sources = await this.sources(files, ctx);
    const target = bibliographicTarget(question, sources);
    if (!target || !answerable(target.field, answerType)) return undefined;
    const { field } = target;
    const found = await answerFromMetadata<PassageDto>(question, target.sources, async (query, fileId) => {
      const reply = await this.rpc.call(PassagesSearch, { query, fileIds: [fileId], limit: VALUE_PASSAGES, dense: false }, ctx);
      return reply.passages;
    });
    if (!found) return undefined;
    const written = found.located.map(({ passage, span }) => passage.text.slice(span.start, span.end));
    const typed = typedAnswer(
      field,
      found.located.map((l) => l.value),
      written,
      answerType,
    );
    if (!typed) return undefined;
    return {
      answer: {
        found: true,
        ...typed,
        confidence: METADATA_CONFIDENCE,
        explanation: found.explanation,
        citations: found.located.map(({ passage, span }) => ({ passageId: passage.id, start: span.start, end: span.end })),
      },
      passages: found.located.map((l) => l.passage),
    };
  }

  /** The files' metadata, asked for all files at once. */
  private sources(files: JobFile[], ctx: RpcContext): Promise<MetadataSource[]> {
    return Promise.all(
      files.map(async (f) => {
        const ontologies = await this.rpc.call(FilesOntologies, { fileId: f.fileId }, ctx).catch((err: unknown) => {
          if (isTransient(err)) throw err;
          // A file deleted meanwhile has no metadata to give; the reader reads what there is.
          return [] as OntologyDto[];
        });
        return { fileId: f.fileId, fileName: f.name, ontologies };
      }),
    );
  }
}

/** Titles and names are text; a date is a date or its text. Other answer types are not what the metadata holds. */
function answerable(field: BibliographicField, answerType: AnswerTypeDto): boolean {
  return answerType.dataType === 'STRING' || (field === 'publicationDate' && answerType.dataType === 'DATE');
}

/**
 * The answer's value: authors as a list (also for a single-valued question: one name would be a
 * wrong answer to "Who are the authors?"), a title as the metadata spells it, a date as the
 * document writes it.
 */
function typedAnswer(
  field: BibliographicField,
  values: string[],
  written: string[],
  answerType: AnswerTypeDto,
): { rawValue: string; value: DataValue } | undefined {
  if (field === 'authors') {
    return values.length > 1 || answerType.multiValued
      ? { rawValue: values.join('; '), value: { strListValue: values } }
      : { rawValue: values[0], value: { strValue: values[0] } };
  }
  if (field === 'title') {
    return answerType.multiValued
      ? { rawValue: values[0], value: { strListValue: [values[0]] } }
      : { rawValue: values[0], value: { strValue: values[0] } };
  }
  if (answerType.dataType === 'STRING') {
    return answerType.multiValued
      ? { rawValue: written[0], value: { strListValue: [written[0]] } }
      : { rawValue: written[0], value: { strValue: written[0] } };
  }
  const parsed = toDataValue(written[0], { ...answerType, multiValued: false });
  if (!parsed.value) return undefined;
  const value: DataValue = answerType.multiValued && parsed.value.dateValue ? { dateListValue: [parsed.value.dateValue] } : parsed.value;
  return { rawValue: formatRawValue(value, answerType) || written[0], value };
}
