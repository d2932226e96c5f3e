import { uuidV5 } from '@docintel/ontologies';
import { mergeByRowKey, type EntityRow } from '@docintel/answering';
import { entityId, type EntityExtractionDto, type EntityIdDto, type EntityRowDto } from '@docintel/contracts';
import type { CitedEvidence, FileEntityRows } from './multi-dim-extraction-unit';
import { toSchemaSpec, type MultiDimExtractionInputs } from './multi-dim-extraction-inputs';

const METAS_NAMESPACE = '5b0c3f52-8a0e-4f8e-9a53-4a4d5f1f6c01';

const idsOf = (evidence: CitedEvidence[]): EntityIdDto[] =>
  [...new Set(evidence.map((e) => e.annotationId))].map((id) => entityId(id, 'ANNOTATION'));

/**
 * The job's result: the rows of every file read so far, merged on the schema's row keys across
 * files (rows of different files that name the same entity become one row, conflicting values listed
 * in the cell's explanation), each cell citing its annotations. Partial while the job runs.
 */
export function entityExtractionOf(jobId: string, inputs: MultiDimExtractionInputs, files: FileEntityRows[]): EntityExtractionDto {
  const spec = toSchemaSpec(inputs.schema);
  const merged: EntityRow[] = mergeByRowKey(
    spec,
    files.flatMap((f) => f.rows),
  );
  const rows: EntityRowDto[] = merged.map((row) => {
    const cells = row.cells.map((c) => ({
      columnKey: c.columnKey,
      value: c.value,
      explanation: c.explanation,
      referenceIds: idsOf(c.evidence as CitedEvidence[]),
    }));
    return {
      explanation: row.explanation,
      referenceIds: idsOf(row.cells.flatMap((c) => c.evidence as CitedEvidence[])),
      cells,
    };
  });
  const fromTables = files.filter((f) => f.tablesUsed > 0);
  const fromText = files.filter((f) => f.textRows > 0 || (f.modelRows ?? 0) > 0);
  const parts = [
    `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} of "${inputs.schema.name}" from ${files.length} ${files.length === 1 ? 'file' : 'files'}`,
    fromTables.length ? `tables of ${fromTables.map((f) => f.fileName).join(', ')}` : '',
    fromText.length ? `the text of ${fromText.map((f) => f.fileName).join(', ')}` : '',
  ].filter(Boolean);
  const none = files.filter((f) => !f.rows.length).map((f) => f.fileName);
  const cut = files
    .filter((f) => f.truncatedFrom)
    .map((f) => `${f.fileName} gave ${f.truncatedFrom} rows; the first ${f.rows.length} were kept`);
  return {
    metaId: uuidV5(`${jobId}:${inputs.schema.name}`, METAS_NAMESPACE),
    meta: inputs.schema.name,
    schema: inputs.schema,
    explanation: `${parts[0]}${parts.length > 1 ? `, read from ${parts.slice(1).join(' and ')}` : ''}.${none.length ? ` Nothing found in ${none.join(', ')}.` : ''}${cut.length ? ` ${cut.join('; ')}.` : ''}`,
    referenceIds: [...new Map(rows.flatMap((r) => r.referenceIds).map((r) => [r.id, r])).values()],
    rows,
  };
}
