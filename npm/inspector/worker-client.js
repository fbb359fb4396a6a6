// @ts-check
// The page's side of worker.js: one request at a time per worker; a new analysis that finds
// the worker busy (a 10 MB payload being counted) replaces it, so the newest input wins.

export class Superseded extends Error {}

export class WorkerClient {
  #worker = /** @type {Worker | null} */ (null);
  #pending = new Map();
  #next = 0;

  #start() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (event) => {
      const { id, ok, error } = event.data;
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      if (ok) pending.resolve(event.data);
      else pending.reject(Object.assign(new Error(error.message), error));
    };
    worker.onerror = (event) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`the inspector's worker failed: ${event.message}`));
      this.#pending.clear();
    };
    this.#worker = worker;
    return worker;
  }

  /** Stops the work in progress (its requests reject with Superseded). */
  cancel() {
    if (this.#pending.size === 0) return;
    this.#worker?.terminate();
    this.#worker = null;
    for (const { reject } of this.#pending.values()) reject(new Superseded('superseded by newer input'));
    this.#pending.clear();
  }

  /**
   * @param {'compact' | 'tokens'} type
   * @param {string} text
   * @param {object} options
   * @returns {Promise<any>}
   */
  request(type, text, options) {
    const worker = this.#worker ?? this.#start();
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, type, text, options });
    });
  }
}
