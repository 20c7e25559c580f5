// Folding and header normalisation: the text forms every sheet rule compares.

import { describe, expect, test } from "bun:test";
import { fold, normaliseHeader, stripAccents } from "../../../src/lib/sheet/text.ts";

describe("fold", () => {
  test.each([
    ["  Hôtel   de\tVille \n", "hotel de ville"],
    ["CAFÉ", "cafe"],
    ["Coupé-Décalé", "coupe-decale"],
    ["ﬁ ligature", "fi ligature"],
    ["", ""],
    ["R&B / Afro House", "r&b / afro house"],
  ])("%p → %p", (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  test("null and undefined fold to empty text", () => {
    expect(fold(null)).toBe("");
    expect(fold(undefined)).toBe("");
  });
});

describe("normaliseHeader", () => {
  test.each([
    ["District/Area", "district area"],
    ["Arr.", "arr"],
    ["GB/FR", "gb fr"],
    ["Date To (End)", "date to end"],
    ["  Party / Activity ", "party activity"],
    ["startTime", "starttime"],
    ["Éléments", "elements"],
  ])("%p → %p", (input, expected) => {
    expect(normaliseHeader(input)).toBe(expected);
  });
});

test("stripAccents keeps case and spacing", () => {
  expect(stripAccents("Père  Lachaise")).toBe("Pere  Lachaise");
});
