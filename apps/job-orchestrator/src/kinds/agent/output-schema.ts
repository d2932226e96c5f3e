import { AgentRunFailed, compileOutputSchema, expandedSizeProblem, schemaPatternProblems } from '@docintel/answering';
import type { ErrorDetail } from '@docintel/contracts';

/** The largest output_model_schema accepted, as JSON. */
export const OUTPUT_SCHEMA_MAX_BYTES = 64 * 1024;

const FIELD = 'output_model_schema';

/**
 * Why output_model_schema cannot be used, if it cannot: too large (as JSON, or once its $refs are
 * expanded), a pattern that cannot run in linear time (named by its path in the schema), or not a
 * JSON Schema the engines can compile. Checked when the job is created, so that a bad schema is a
 * 400 and not a FAILED job, and before compiling, so that nothing costly is done for one.
 */
export function outputSchemaProblems(schema: Record<string, unknown> | null | undefined): ErrorDetail[] {
  if (schema == null) return [];
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > OUTPUT_SCHEMA_MAX_BYTES) {
    return [{ field: FIELD, problem: `is ${bytes} bytes; at most ${OUTPUT_SCHEMA_MAX_BYTES} are accepted` }];
  }
  const patterns = schemaPatternProblems(schema);
  if (patterns.length) {
    return patterns.map((p) => ({ field: p.path ? `${FIELD}${p.path.startsWith('[') ? '' : '.'}${p.path}` : FIELD, problem: p.problem }));
  }
  const tooBig = expandedSizeProblem(schema);
  if (tooBig) return [{ field: FIELD, problem: tooBig }];
  try {
    compileOutputSchema(schema);
    return [];
  } catch (err) {
    const reason = err instanceof AgentRunFailed ? err.details.join('; ') : err instanceof Error ? err.message : String(err);
    return [{ field: FIELD, problem: `is not a valid JSON Schema: ${reason}` }];
  }
}
