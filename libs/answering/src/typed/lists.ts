/**
 * The items of a list written as text: one per line or bullet, else separated by semicolons, else
 * by commas and a final "and"/"or" ("A, B and C"). Bullets and numbering are dropped.
 */
export function splitList(raw: string): string[] {
  const bullet = /^\s*(?:[-*•·‣◦▪–—]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/i;
  const lines = raw
    .split(/\r?\n/)
    .map((l) => l.replace(bullet, '').trim())
    .filter(Boolean);
  if (lines.length > 1) return lines;
  const line = lines[0] ?? '';
  const parts = line.includes(';') ? line.split(';') : line.split(/,\s+|,(?=\D)|\s+(?:and|or|&)\s+/i);
  return parts.map((p) => p.replace(/^\s*(?:and|or)\s+/i, '').trim()).filter(Boolean);
}
