// @ts-check
// Large GCX1 payloads, a page at a time: the page finds the section headers and row lines by
// scanning for newlines, and decodes only the rows it shows (the header and those lines, one
// gcx.decode call). The whole payload is decoded in the worker, for compact.json and for its
// errors. Payloads with comment or blank lines are not split this way (their rows are not one
// line each).

/**
 * @typedef {{ header: string, lineStarts: Uint32Array, rowCount: number, end: number }} LazySection
 *   `header` without its `rows=N` key (a page has fewer rows); `lineStarts[i]`: where row i starts
 */

/**
 * The sections of GCX1 text, or null when its rows are not one line each.
 * @param {string} text
 * @returns {LazySection[] | null}
 */
export function splitSections(text) {
  /** @type {{ header: string, starts: number[], end: number }[]} */
  const found = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end === start || text.charCodeAt(start) === 0x23) return null; // blank line, or comment
    if (text.startsWith('GCX1', start)) {
      found.push({ header: text.slice(start, end).replace(/ rows=\d+(?= |$)/, ''), starts: [], end });
    } else {
      if (found.length === 0) return null;
      found.at(-1).starts.push(start);
    }
    found.at(-1).end = end;
    start = end + 1;
  }
  return found.map((s) => ({ header: s.header, lineStarts: Uint32Array.from(s.starts), rowCount: s.starts.length, end: s.end }));
}

/**
 * The text of rows [first, last) of a section, with its header: what gcx.decode reads for a page.
 * @param {string} text
 * @param {LazySection} section
 * @param {number} first
 * @param {number} last
 */
export function pageText(text, section, first, last) {
  const from = section.lineStarts[first];
  const to = last < section.rowCount ? section.lineStarts[last] - 1 : section.end;
  return `${section.header}\n${text.slice(from, to)}\n`;
}
