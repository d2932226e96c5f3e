import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { formatRawValue, toDataValue, type Reader, type ReaderAnswer } from '@docintel/answering';
import { FilesOntologies, PassagesSearch, entityId, type MetaResultDto, type OntologyDto, type PassageDto } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobKindRunner } from '../../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../../jobs/job-records';
import type { UnitOutcome } from '../../jobs/jobs.repository';
import type { JobsEnv } from '../../jobs.env';
import { citationsToAnnotations, type CitedAnnotation } from '../../reading/citations';
import { ontologyAnswer } from '../../reading/ontology-answers';
import { PassageRanking } from '../../reading/passage-ranking';
import { READER } from '../../reading/reader.token';
import { isTransient, jobContext, messageOf, toReaderPassage } from '../../reading/unit-context';
import type { ExtractionInputs } from './extraction-inputs';

type Meta = ExtractionInputs['metas'][number];
type ExtractionJob = JobRecord<ExtractionInputs>;

/**
 * One file of an extraction job: each meta is a question over the file (its description, or its
 * name), answered from the document metadata the pipeline found when that has it, else by the
 * reader. A meta that cannot be read fails alone, with the reason in its explanation.
 */
@Injectable()
export class ExtractionUnitRunner implements JobKindRunner<ExtractionInputs, MetaResultDto> {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(READER) private readonly reader: Reader,
    private readonly ranking: PassageRanking,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
  ) {}

  async run(
    job: ExtractionJob,
    unit: UnitRecord<MetaResultDto>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<UnitOutcome<MetaResultDto>> {
    const { metas } = job.inputs;
    const fileId = unit.fileId as string;
    const ctx = jobContext(job, requestId);
    const ontologies = await this.rpc.call(FilesOntologies, { fileId }, ctx).catch((err: unknown) => {
      if (isTransient(err)) throw err;
      return [] as OntologyDto[];
    });
    const results: MetaResultDto[] = [];
    const annotations: CitedAnnotation[] = [];
    let failed = 0;
    for (const meta of metas) {
      signal.throwIfAborted();
      try {
        const { answer, passages } = await this.extract(meta, fileId, ontologies, ctx, signal);
        const cited = answer.found ? citationsToAnnotations(answer.citations, passages) : [];
        annotations.push(...cited);
        results.push(metaResult(meta, fileId, answer, cited));
      } catch (err) {
        if (isTransient(err) || signal.aborted) throw err;
        failed++;
        results.push(failedMetaResult(meta, fileId, messageOf(err)));
      }
    }
    return {
      status: metas.length > 0 && failed === metas.length ? 'FAILED' : 'DONE',
      results,
      answered: results.length,
      annotations,
      error: failed
        ? `${failed} of ${metas.length} metas could not be read from this file: ${results.find((r) => !r.found)?.explanation ?? ''}`
        : undefined,
    };
  }
  /** Every meta of the file failed, with the reason. */
  failedResults(job: ExtractionJob, unit: UnitRecord<MetaResultDto>, reason: string): MetaResultDto[] {
    return job.inputs.metas.map((m) => failedMetaResult(m, unit.fileId as string, reason));
  }

  private async extract(
    meta: Meta,
    fileId: string,
    ontologies: OntologyDto[],
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
  ): Promise<{ answer: ReaderAnswer; passages: PassageDto[] }> {
    const known = ontologyAnswer(meta.meta, ontologies);
    if (known) {
      const cited = await this.citeKnownValue(known.values, fileId, ctx);
      const raw = meta.answerType.multiValued ? known.values.join('; ') : known.values[0];
      const parsed = toDataValue(raw, meta.answerType);
      if (parsed.value) {
        const rawValue = formatRawValue(parsed.value, meta.answerType) || parsed.rawValue;
        return {
          answer: {
            found: true,
            rawValue,
            value: parsed.value,
            confidence: 0.9,
            explanation: known.explanation,
            citations: cited.citations,
          },
          passages: cited.passages,
        };
      }
    }
    const question = meta.description ? `${meta.meta}: ${meta.description}` : meta.meta;
    const found = await this.rpc.call(
      PassagesSearch,
      { query: question.slice(0, 8000), fileIds: [fileId], limit: this.env.JOB_PASSAGES },
      ctx,
    );
    const passages = await this.ranking.rank(question, found.passages, signal);
    const answer = await this.reader.answer({ question, answerType: meta.answerType }, passages.map(toReaderPassage), signal);
    return { answer, passages };
  }

  /** Where in the file a value known from the metadata is written: the first passage that contains it. */
  private async citeKnownValue(values: string[], fileId: string, ctx: ReturnType<typeof jobContext>) {
    const { passages } = await this.rpc.call(PassagesSearch, { query: values[0].slice(0, 8000), fileIds: [fileId], limit: 10 }, ctx);
    for (const p of passages) {
      const at = p.text.toLowerCase().indexOf(values[0].toLowerCase());
      if (at >= 0) return { passages: [p], citations: [{ passageId: p.id, start: at, end: at + values[0].length }] };
    }
    return { passages: [] as PassageDto[], citations: [] };
  }
}

function metaResult(meta: Meta, fileId: string, answer: ReaderAnswer, cited: CitedAnnotation[]): MetaResultDto {
  return {
    id: randomUUID(),
    meta: meta.meta,
    answerType: meta.answerType,
    answer: answer.found && answer.value ? answer.value : {},
    rawValue: answer.found ? answer.rawValue : null,
    explanation: answer.explanation,
    referenceIds: cited.map((a) => entityId(a.id, 'ANNOTATION')),
    fileId,
    found: answer.found,
    confidence: Math.round(Math.max(0, Math.min(1, answer.confidence)) * 1000) / 1000,
  };
}

export function failedMetaResult(meta: Meta, fileId: string, reason: string): MetaResultDto {
  return {
    id: randomUUID(),
    meta: meta.meta,
    answerType: meta.answerType,
    answer: {},
    rawValue: null,
    explanation: `The value could not be read from this file: ${reason}`,
    referenceIds: [],
    fileId,
    found: false,
    confidence: 0,
  };
}
