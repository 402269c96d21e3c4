declare module '@marbec/web-auto-extractor' {
  type Extracted = {
    metatags: Record<string, string[]>;
    jsonld: Record<string, Record<string, unknown>[]>;
    microdata: Record<string, unknown[]>;
    rdfa: Record<string, unknown[]>;
  };
  export default class WebAutoExtractor {
    constructor(options?: { addLocation?: boolean; embedSource?: boolean });
    parse(html: string): Extracted;
  }
}
