/** The URL of a vocabulary file of this package (`cl100k_base.bin`, `o200k_base.bin`). */
export declare function vocabularyUrl(encoding: 'cl100k_base' | 'o200k_base'): URL;
