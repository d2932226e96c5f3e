import type { AnswerTypeDto, DataValue } from '@docintel/contracts';

/** A value known as text (from the document metadata) in the requested type. */
export function parseAnswer(raw: string, type: AnswerTypeDto): { value: DataValue | null; rawValue: string } {
  // Replaced by libs/answering's typed values once they land.
  if (type.dataType === 'STRING') return { value: type.multiValued ? { strListValue: raw.split('; ') } : { strValue: raw }, rawValue: raw };
  return { value: null, rawValue: raw };
}
