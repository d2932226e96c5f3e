import { AgentRunFailed, compileOutputSchema } from '@docintel/answering';
import type { ErrorDetail } from '@docintel/contracts';

/** The largest output_model_schema accepted, as JSON. */
export const OUTPUT_SCHEMA_MAX_BYTES = 64 * 1024;

/**
 * Why output_model_schema cannot be used, if it cannot: too large, or not a JSON Schema the
 * engines can compile. Checked when the job is created, so that a bad schema is a 400 and not a
 * FAILED job.
 */
export function outputSchemaProblems(schema: Record<string, unknown> | null | undefined): ErrorDetail[] {
  if (schema == null) return [];
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > OUTPUT_SCHEMA_MAX_BYTES) {
    return [{ field: 'output_model_schema', problem: `is ${bytes} bytes; at most ${OUTPUT_SCHEMA_MAX_BYTES} are accepted` }];
  }
  try {
    compileOutputSchema(schema);
    return [];
  } catch (err) {
    const reason = err instanceof AgentRunFailed ? err.details.join('; ') : err instanceof Error ? err.message : String(err);
    return [{ field: 'output_model_schema', problem: `is not a valid JSON Schema: ${reason}` }];
  }
}
