declare module 'word-extractor' {
  interface ExtractOptions {
    filterUnicode?: boolean;
    includeHeadersAndFooters?: boolean;
  }
  class WordDocument {
    getBody(options?: ExtractOptions): string;
    getFootnotes(options?: ExtractOptions): string;
    getEndnotes(options?: ExtractOptions): string;
    getHeaders(options?: ExtractOptions): string;
    getFooters(options?: ExtractOptions): string;
    getAnnotations(options?: ExtractOptions): string;
    getTextboxes(options?: ExtractOptions): string;
  }
  class WordExtractor {
    extract(source: string | Buffer): Promise<WordDocument>;
  }
  export = WordExtractor;
}
