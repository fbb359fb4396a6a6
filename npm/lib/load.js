// @ts-check
// `load()` of a separately loaded area: a promise that rejects with an AgentwireError (never
// throws).

import { toAgentwireError } from './errors.js';

export function asyncLoad(load) {
  return (input = undefined) => {
    try {
      return Promise.resolve(load(input)).then(() => undefined);
    } catch (e) {
      return Promise.reject(toAgentwireError(e));
    }
  };
}
