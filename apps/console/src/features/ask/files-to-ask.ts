/** Files asked at most: the QA job reads each of them. */
export const FILES_ASKED = 5;

export interface FileToAsk {
  fileId: string;
  fileName: string;
  /** The file's best passage: what matched. */
  passage: { id: string; text: string };
}

/** The distinct files of the passages (best first), up to `max`, each with its best passage. */
export function filesToAsk(
  passages: ReadonlyArray<{ id: string; fileId: string; fileName: string; text: string }>,
  max = FILES_ASKED,
): FileToAsk[] {
  const files = new Map<string, FileToAsk>();
  for (const p of passages) {
    if (files.size >= max) break;
    if (!files.has(p.fileId)) files.set(p.fileId, { fileId: p.fileId, fileName: p.fileName, passage: { id: p.id, text: p.text } });
  }
  return [...files.values()];
}
