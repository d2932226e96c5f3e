import type { EntityColumnSpec, EntitySchemaSpec } from '@docintel/answering';
import {
  columnRoleName,
  columnTypeName,
  DomainError,
  type CreateMultiDimJobRequestDto,
  type EntitySchemaDto,
  type ErrorDetail,
  type FilesInputDto,
  type JobLaunchConfigDto,
} from '@docintel/contracts';

/** A multi-dimensional extraction job's request as accepted: every unit (one per file) reads the schema. */
export interface MultiDimExtractionInputs {
  files: FilesInputDto;
  schema: EntitySchemaDto;
  config?: JobLaunchConfigDto;
}

/**
 * The request's schema checked beyond its shape: column keys unique, allowed values only on text
 * columns and not empty. Problems name the field, as validation does.
 */
export function multiDimExtractionInputs(req: CreateMultiDimJobRequestDto): MultiDimExtractionInputs {
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  req.schema.columns.forEach((c, i) => {
    const at = `schema.columns[${i}]`;
    const first = seen.get(c.key);
    if (first !== undefined) problems.push({ field: `${at}.key`, problem: `repeats the key of schema.columns[${first}] ("${c.key}")` });
    else seen.set(c.key, i);
    const type = columnTypeName(c.type);
    if (c.allowedValues && !c.allowedValues.length)
      problems.push({ field: `${at}.allowedValues`, problem: 'must not be empty when given' });
    if (c.allowedValues?.length && type !== 'STRING' && type !== 'UNSPECIFIED') {
      problems.push({ field: `${at}.allowedValues`, problem: `apply to text columns only, not to ${c.type}` });
    }
  });
  if (problems.length) throw DomainError.invalid(problems, 'The schema is not valid');
  return { files: req.files, schema: req.schema, ...(req.config ? { config: req.config } : {}) };
}

/** The schema as the table engine reads it (types and roles without their wire prefixes). */
export function toSchemaSpec(schema: EntitySchemaDto): EntitySchemaSpec {
  return {
    name: schema.name,
    description: schema.description,
    columns: schema.columns.map((c): EntityColumnSpec => ({
      key: c.key,
      label: c.label,
      type: columnTypeName(c.type ?? 'ENTITY_COLUMN_TYPE_STRING'),
      role: columnRoleName(c.role),
      description: c.description,
      allowedValues: c.allowedValues,
      isRowKey: c.isRowKey === true,
    })),
  };
}
