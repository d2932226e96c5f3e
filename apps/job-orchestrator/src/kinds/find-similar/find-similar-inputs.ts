import { DomainError, type CreateFindSimilarJobRequestDto, type ErrorDetail, type SourceIdentifierDto } from '@docintel/contracts';

/** A find-similar job's sources, as given; unit i searches sourceIdentifiers[i]. */
export interface FindSimilarInputs {
  sourceIdentifiers: SourceIdentifierDto[];
}

/**
 * The sources of a find-similar job: each must name a document by at least one of doi, id and
 * openAccessId (the DTO checks each identifier's form). Only the identifiers given are kept.
 */
export function findSimilarInputs(req: CreateFindSimilarJobRequestDto): FindSimilarInputs {
  const problems: ErrorDetail[] = [];
  const sourceIdentifiers = req.sourceIdentifiers.map((s, i) => {
    const kept = Object.fromEntries(
      (['doi', 'id', 'openAccessId'] as const).filter((k) => typeof s[k] === 'string' && s[k].trim()).map((k) => [k, s[k]?.trim()]),
    );
    if (!Object.keys(kept).length)
      problems.push({ field: `sourceIdentifiers[${i}]`, problem: 'must name the document by doi, id or openAccessId' });
    return kept;
  });
  if (problems.length) throw DomainError.invalid(problems);
  return { sourceIdentifiers };
}
