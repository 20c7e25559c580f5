import { expect, test } from "bun:test";
import { createDoorkeeper } from "../../../src/lib/memo/doorkeeper.ts";

test("a key is new the first time and asked before from the second on", () => {
  const door = createDoorkeeper();
  expect(door.askedBefore("/?q=kompa")).toBe(false);
  expect(door.askedBefore("/?q=kompa")).toBe(true);
  expect(door.askedBefore("/?q=kompa")).toBe(true);
  // Case, accents and neighbours are other keys.
  for (const key of ["/?q=Kompa", "/?q=kömpa", "/?q=kompa ", "/?q=komp", ""]) expect(door.askedBefore(key)).toBe(false);
});

test("10,000 one-off keys are nearly all new; each is remembered while the table holds it", () => {
  const door = createDoorkeeper();
  const keys = Array.from({ length: 10_000 }, (_, i) => `/?g=house&q=venue+m${i}`);
  const firstTime = keys.filter((key) => !door.askedBefore(key)).length;
  // Only a key sharing a slot and a fingerprint with an earlier one would count as asked before.
  expect(firstTime).toBeGreaterThanOrEqual(9_999);
  // Asked again: remembered unless another key took its slot since (65,536 slots for 10,000 keys:
  // about 86 % are, counting the slots the second round itself takes back).
  const remembered = keys.filter((key) => door.askedBefore(key)).length;
  expect(remembered).toBeGreaterThan(8_000);
});

test("a small table forgets the older of two keys sharing a slot; its size must be a power of two", () => {
  const door = createDoorkeeper(1);
  expect(door.askedBefore("a")).toBe(false);
  expect(door.askedBefore("b")).toBe(false);
  expect(door.askedBefore("a")).toBe(false);
  expect(door.askedBefore("a")).toBe(true);
  expect(() => createDoorkeeper(1000)).toThrow("power of two");
});
