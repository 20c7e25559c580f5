import { expect, test } from "bun:test";
import { memoised, memoisedPerObject, memoisedWhenRepeated } from "../../../src/lib/memo/memo.ts";

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

test("per object: computed once for the same object, again for another equal one", () => {
  let calls = 0;
  const total = memoisedPerObject((list: readonly number[]) => {
    calls++;
    return list.reduce((a, b) => a + b, 0);
  });
  const list = [1, 2, 3];
  expect([total(list), total(list)]).toEqual([6, 6]);
  expect(calls).toBe(1);
  expect(total([1, 2, 3])).toBe(6);
  expect(calls).toBe(2);
});

test("when repeated: an input is computed each time until it is asked a second time, then kept", () => {
  const calls: string[] = [];
  const upper = memoisedWhenRepeated(10, (input) => {
    calls.push(input);
    return input.toUpperCase();
  });
  // The same input twice in a row (one request reading its URL twice) is computed once.
  expect([upper("a"), upper("a")]).toEqual(["A", "A"]);
  expect(calls).toEqual(["a"]);
  // "b" in between: "a" asked again is computed again (not kept the first time), and kept now.
  expect([upper("b"), upper("a"), upper("b"), upper("a")]).toEqual(["B", "A", "B", "A"]);
  expect(calls).toEqual(["a", "b", "a", "b"]);
  // A one-off asked once is never kept.
  for (let i = 0; i < 50; i++) upper(`one-off ${i}`);
  expect([upper("a"), upper("b")]).toEqual(["A", "B"]);
  expect(calls.filter((c) => c === "a" || c === "b")).toEqual(["a", "b", "a", "b"]);
});
