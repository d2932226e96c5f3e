import {
  DomainError,
  type AnswerTypeDto,
  type CreateExtractionJobRequestDto,
  type ErrorDetail,
  type FilesInputDto,
  type JobLaunchConfigDto,
  type MetaInputDto,
} from '@docintel/contracts';
import { answerTypeProblems, withDefaults } from '../answer-type';

/** An extraction job's request as accepted: every meta with its answer type; every unit (one per file) reads them all. */
export interface ExtractionInputs {
  files: FilesInputDto;
  metas: Array<MetaInputDto & { answerType: AnswerTypeDto }>;
  config?: JobLaunchConfigDto;
}

/** The metas of an extraction job with their answer types, checked beyond what the DTO's decorators see. */
export function extractionInputs(req: CreateExtractionJobRequestDto): ExtractionInputs {
  const problems: ErrorDetail[] = [];
  const metas = req.metas.map((m, i) => {
    const answerType = withDefaults(m.answerType);
    problems.push(...answerTypeProblems(answerType, `metas[${i}].answerType`));
    return { ...m, answerType };
  });
  if (problems.length) throw DomainError.invalid(problems);
  return { files: req.files, metas, config: req.config };
}
