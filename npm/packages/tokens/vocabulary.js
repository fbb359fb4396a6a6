// The URLs of the vocabulary files, beside this module. Written out per encoding so that
// bundlers (Vite, webpack 5, esbuild with a file loader) see each `new URL(…, import.meta.url)`
// and copy the file.
export function vocabularyUrl(encoding) {
  switch (encoding) {
    case 'cl100k_base':
      return new URL('./cl100k_base.bin', import.meta.url);
    case 'o200k_base':
      return new URL('./o200k_base.bin', import.meta.url);
    default:
      throw new Error(`agentwire-tokens has no vocabulary ${encoding} (cl100k_base, o200k_base)`);
  }
}
