// @ts-check
// A small element builder for the inspector's modules.

/**
 * `el('td', { class: 'x', testid: 'row', title: '…' }, child, …)`: props set as properties,
 * but `testid` (data-testid), `class` and `data` (dataset entries).
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...any} children  nodes, strings, numbers or arrays of them
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (key === 'testid') node.dataset.testid = value;
    else if (key === 'class') node.className = value;
    else if (key === 'data') for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else /** @type {any} */ (node)[key] = value;
  }
  for (const child of children.flat()) if (child != null) node.append(child instanceof Node ? child : String(child));
  return node;
}
