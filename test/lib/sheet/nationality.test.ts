// Nationality rules (§2.6): flags, dotted codes, whole tokens, multi-word names and unsupported tokens.

import { describe, expect, test } from "bun:test";
import { nationalityDisplay, parseNationality, readNationalityCell } from "../../../src/lib/sheet/nationality.ts";

describe("readNationalityCell", () => {
  test.each([
    ["UK", ["UK"], []],
    ["GB", ["UK"], []],
    ["🇬🇧", ["UK"], []],
    ["🇫🇷🇬🇧", ["FR", "UK"], []],
    ["U.K.", ["UK"], []],
    ["GB/FR", ["UK", "FR"], []],
    ["FR/UK", ["FR", "UK"], []],
    ["United Kingdom", ["UK"], []],
    ["Great Britain & France", ["UK", "FR"], []],
    ["British", ["UK"], []],
    ["England, Scotland, Wales", ["UK"], []],
    ["Français", ["FR"], []],
    ["French-Canadian", ["FR", "CA"], []],
    ["Canada (Québec)", ["CA"], []],
    ["Holland + Dutch", ["NL"], []],
    ["nl;ca|fr", ["NL", "CA", "FR"], []],
    ["Africa", [], ["africa"]],
    ["Francophone", [], []],
    ["Canadiana", [], []],
    ["US", [], ["us"]],
    ["UK & USA", ["UK"], ["usa"]],
    ["Nigeria / UK", ["UK"], ["nigeria"]],
    ["🇺🇸", [], ["us"]],
    ["UK and FR", ["UK", "FR"], []],
    ["Mixed crowd", [], []],
    ["", [], []],
  ])("%p → %p, unsupported %p", (cell, codes, unsupported) => {
    expect(readNationalityCell(cell)).toEqual({ codes, unsupported } as never);
  });
});

test("host and audience codes are united in first-seen order", () => {
  expect(parseNationality("FR", "GB/FR, NL")).toEqual({ codes: ["FR", "UK", "NL"], unsupported: [] });
  expect(parseNationality("", "")).toEqual({ codes: [], unsupported: [] });
  expect(parseNationality("US", "us")).toEqual({ codes: [], unsupported: ["us"] });
});

test.each([
  ["UK", { flag: "🇬🇧", code: "GB" }],
  ["FR", { flag: "🇫🇷", code: "FR" }],
  ["CA", { flag: "🇨🇦", code: "CA" }],
  ["NL", { flag: "🇳🇱", code: "NL" }],
])("display %p → %p", (code, display) => {
  expect(nationalityDisplay(code as never)).toEqual(display);
});
