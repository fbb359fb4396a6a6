// tool_browse {query}: ranks tools by the query's words in their name and description. A
// small lexical scorer; the ranking contract (cards, ordering, budgets) is agentwire's.

const words = (s) => String(s ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);

/** @param {Array<{ id: string, def: { name: string, description?: string } }>} tools */
export function createRouter(tools) {
  const docs = tools.map((t) => ({ id: t.id, name: new Set(words(t.def.name)), text: new Set(words(t.def.description)) }));
  return (query, topK) => {
    const q = [...new Set(words(query))];
    if (!q.length) return [];
    const scored = docs
      .map((d) => {
        const hits = q.reduce((s, w) => s + (d.name.has(w) ? 2 : 0) + (d.text.has(w) ? 1 : 0), 0);
        return { id: d.id, score: Math.round((100 * hits) / (3 * q.length)) / 100 };
      })
      .filter((d) => d.score > 0);
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return scored.slice(0, topK);
  };
}
