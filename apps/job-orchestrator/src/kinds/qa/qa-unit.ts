import { Inject, Injectable } from '@nestjs/common';
import {
  cuedQuery,
  cuedQuestion,
  preferSection,
  sectionCue,
  type ChainedAnswer,
  type Reader,
  type ReaderAnswer,
} from '@docintel/answering';
import { PassagesSearch, entityId, type PassageDto, type QaResultDto } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobKindRunner } from '../../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../../jobs/job-records';
import { JobsRepository, type UnitOutcome } from '../../jobs/jobs.repository';
import type { JobsEnv } from '../../jobs.env';
import { citationsToAnnotations, sourcedContent } from '../../reading/citations';
import { checkExpectedAnswer } from '../../reading/expected-answer';
import { MetadataAnswers } from '../../reading/metadata-answers';
import { PassageRanking } from '../../reading/passage-ranking';
import { READER } from '../../reading/reader.token';
import { jobContext, toReaderPassage } from '../../reading/unit-context';
import type { QaInputs } from './qa-inputs';

type QaJob = JobRecord<QaInputs>;
type QaUnit = UnitRecord<QaResultDto>;

/**
 * One question of a QA job: retrieve passages of the job's files (the answers of the questions it
 * chains on join the query, so "what did <the company of question 1> earn" finds the company),
 * ask the reader, cite.
 */
@Injectable()
export class QaUnitRunner implements JobKindRunner<QaInputs, QaResultDto> {
  constructor(
    private readonly rpc: RpcClient,
    private readonly repo: JobsRepository,
    @Inject(READER) private readonly reader: Reader,
    private readonly ranking: PassageRanking,
    private readonly metadata: MetadataAnswers,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
  ) {}

  async run(job: QaJob, unit: QaUnit, requestId: string, signal: AbortSignal): Promise<UnitOutcome<QaResultDto>> {
    const question = job.inputs.questions[unit.unit];
    const chained = await this.chainedAnswers(job, unit);
    let passages: PassageDto[] = [];
    let answer: ReaderAnswer;
    if (!job.files.length) {
      answer = {
        found: false,
        rawValue: '',
        value: null,
        confidence: 0,
        citations: [],
        explanation: 'The job has no indexed file to read.',
      };
    } else {
      const ctx = jobContext(job, requestId);
      const known = chained.length ? undefined : await this.metadata.answer(question.question, question.answerType, job.files, ctx);
      if (known) ({ answer, passages } = known);
      else ({ answer, passages } = await this.read(question, chained, job, ctx, signal));
    }
    const annotations = answer.found ? citationsToAnnotations(answer.citations, passages) : [];
    const result: QaResultDto = {
      question: question.question,
      rawValue: answer.found ? answer.rawValue : '',
      explanation: answer.explanation,
      sourcedContent: answer.found ? sourcedContent(answer.citations, passages) : '',
      referenceIds: annotations.map((a) => entityId(a.id, 'ANNOTATION')),
      inputQuestionIds: question.inputQuestionIds,
      questionId: question.id,
      found: answer.found,
      confidence: round(answer.confidence),
    };
    if (job.files.length) result.engine = this.reader.name;
    if (answer.value) result.answer = answer.value;
    if (question.expectedAnswer !== undefined) {
      const check = checkExpectedAnswer(question.expectedAnswer, result.rawValue, answer.value, question.answerType);
      result.expectedAnswer = question.expectedAnswer;
      result.answerValidity = check.validity;
      result.validityExplaination = check.explanation;
    }
    return { status: 'DONE', results: [result], answered: 1, annotations };
  }

  /**
   * Retrieval and the reader. A question about a fact papers state in a section of their own
   * (funding, affiliations, abstract, conclusion) searches with that section's words too, reads
   * the passages under such a heading first, and is read with the words such sections use.
   */
  private async read(
    question: QaInputs['questions'][number],
    chained: ChainedAnswer[],
    job: QaJob,
    ctx: ReturnType<typeof jobContext>,
    signal: AbortSignal,
  ): Promise<{ answer: ReaderAnswer; passages: PassageDto[] }> {
    const cue = sectionCue(question.question);
    const query = cuedQuery([question.question, ...chained.filter((c) => c.found).map((c) => c.rawValue)].join('\n'), cue);
    const found = await this.rpc.call(
      PassagesSearch,
      { query: query.slice(0, 8000), fileIds: job.files.map((f) => f.fileId), limit: this.env.JOB_PASSAGES },
      ctx,
    );
    const passages = preferSection(await this.ranking.rank(question.question, found.passages, signal), cue);
    const answer = await this.reader.answer(
      { question: cuedQuestion(question.question, cue), answerType: question.answerType, guidelines: question.guidelines, inputs: chained },
      passages.map(toReaderPassage),
      signal,
    );
    return { answer, passages };
  }

  /** A failed question's result: the reason, in words, where the answer would be. */
  failedResults(job: QaJob, unit: QaUnit, reason: string): QaResultDto[] {
    const question = job.inputs.questions[unit.unit];
    return [
      {
        question: question.question,
        rawValue: '',
        explanation: `The question could not be answered: ${reason}`,
        sourcedContent: '',
        referenceIds: [],
        inputQuestionIds: question.inputQuestionIds,
        questionId: question.id,
        found: false,
        confidence: 0,
        ...(question.expectedAnswer !== undefined
          ? { expectedAnswer: question.expectedAnswer, answerValidity: 0, validityExplaination: 'No answer.' }
          : {}),
      },
    ];
  }

  /** The answers of the questions this one names, in the order named. */
  private async chainedAnswers(job: QaJob, unit: QaUnit): Promise<ChainedAnswer[]> {
    if (!unit.dependsOn.length) return [];
    const units = await this.repo.unitsByNumber<QaResultDto>(job.id, unit.dependsOn);
    const questions = job.inputs.questions;
    return unit.dependsOn.map((n) => {
      const result = units.find((u) => u.unit === n)?.results[0];
      return {
        questionId: questions[n].id,
        question: questions[n].question,
        rawValue: result?.rawValue ?? '',
        found: result?.found ?? false,
      };
    });
  }
}

const round = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
