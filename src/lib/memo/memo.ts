// Bounded memos of pure functions of a string, for values read again and again on hot paths (a
// request's URL, a header value, a peer address): the same few inputs come back on nearly every
// request. A full memo starts over instead of tracking use, so endless distinct inputs (a client
// making up URLs) only keep it small.

import { createDoorkeeper } from "./doorkeeper.ts";

/**
 * `compute` memoised per input, at most `max` inputs kept (all dropped when it is full).
 * `compute` must be pure and never return undefined (undefined marks a missing entry).
 */
export function memoised<T>(max: number, compute: (input: string) => T): (input: string) => T {
  const memo = new Map<string, T>();
  return (input) => {
    let found = memo.get(input);
    if (found === undefined) {
      found = compute(input);
      if (memo.size >= max) memo.clear();
      memo.set(input, found);
    }
    return found;
  };
}

/**
 * `memoised`, but an input is kept only from its second request on (createDoorkeeper remembers the
 * inputs asked once), so endless one-off inputs (each visitor's own search in a URL) neither fill
 * the memo nor churn the heap. The last input's value is kept as well: one request reading its URL
 * twice (the server's hit path, then the router) computes it once.
 */
export function memoisedWhenRepeated<T>(max: number, compute: (input: string) => T): (input: string) => T {
  const memo = new Map<string, T>();
  const asked = createDoorkeeper();
  let lastInput: string | undefined;
  let lastValue: T | undefined;
  return (input) => {
    if (input === lastInput) return lastValue!;
    let found = memo.get(input);
    if (found === undefined) {
      found = compute(input);
      if (asked.askedBefore(input)) {
        if (memo.size >= max) memo.clear();
        memo.set(input, found);
      }
    }
    lastInput = input;
    lastValue = found;
    return found;
  };
}

/**
 * `compute` memoised per object, kept as long as the object lives (a WeakMap). For pure functions
 * of a list that is never changed once built, such as the live read's event list, which the store
 * source hands back unchanged while the store is unchanged. `compute` must never return undefined.
 */
export function memoisedPerObject<K extends object, T>(compute: (input: K) => T): (input: K) => T {
  const memo = new WeakMap<K, T>();
  return (input) => {
    let found = memo.get(input);
    if (found === undefined) {
      found = compute(input);
      memo.set(input, found);
    }
    return found;
  };
}
