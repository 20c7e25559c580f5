// Bounded memos of pure functions of a string, for values read again and again on hot paths (a
// request's URL, a header value, a peer address): the same few inputs come back on nearly every
// request. A full memo starts over instead of tracking use, so endless distinct inputs (a client
// making up URLs) only keep it small.

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
