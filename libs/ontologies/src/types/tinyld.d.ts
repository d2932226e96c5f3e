// tinyld declares its types only through package.json "exports", which the repo's node10 module resolution does not read.
declare module 'tinyld' {
  export function detectAll(text: string, opts?: { only?: string[]; verbose?: boolean }): Array<{ lang: string; accuracy: number }>;
}
