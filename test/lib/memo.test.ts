import { expect, test } from "bun:test";
import { memoised } from "../../src/lib/memo.ts";

test("computes each input once, keeps null and false answers, and starts over when full", () => {
  const calls: string[] = [];
  const lengthOrNull = memoised(3, (input) => {
    calls.push(input);
    return input === "" ? null : input === "no" ? false : input.length;
  });
  expect(["abc", "abc", "", "", "no", "no"].map(lengthOrNull)).toEqual([3, 3, null, null, false, false]);
  expect(calls).toEqual(["abc", "", "no"]);
  // A fourth input finds the memo full: it is cleared, so "abc" is computed again afterwards.
  expect(lengthOrNull("four")).toBe(4);
  expect(lengthOrNull("abc")).toBe(3);
  expect(calls).toEqual(["abc", "", "no", "four", "abc"]);
});
