// Nationality rules (docs/sheet.md, "Nationality"): flags, dotted codes, whole tokens, multi-word
// names, unsupported tokens and cells that name no country at all.

import { describe, expect, test } from "bun:test";
import { nationalityDisplay, parseNationality, readNationalityCell } from "../../../src/lib/sheet/nationality.ts";

describe("readNationalityCell", () => {
  test.each([
    ["UK", ["UK"], [], false],
    ["GB", ["UK"], [], false],
    ["🇬🇧", ["UK"], [], false],
    ["🇫🇷🇬🇧", ["FR", "UK"], [], false],
    ["U.K.", ["UK"], [], false],
    ["GB/FR", ["UK", "FR"], [], false],
    ["FR/UK", ["FR", "UK"], [], false],
    ["United Kingdom", ["UK"], [], false],
    ["Great Britain & France", ["UK", "FR"], [], false],
    ["British", ["UK"], [], false],
    ["England, Scotland, Wales", ["UK"], [], false],
    ["Français", ["FR"], [], false],
    ["French-Canadian", ["FR", "CA"], [], false],
    ["Canada (Québec)", ["CA"], [], false],
    ["Holland + Dutch", ["NL"], [], false],
    ["nl;ca|fr", ["NL", "CA", "FR"], [], false],
    ["Africa", [], ["africa"], false],
    ["Francophone", [], [], true],
    ["Canadiana", [], [], true],
    ["US", [], ["us"], false],
    ["UK & USA", ["UK"], ["usa"], false],
    ["Nigeria / UK", ["UK"], ["nigeria"], false],
    ["🇺🇸", [], ["us"], false],
    ["UK and FR", ["UK", "FR"], [], false],
    ["Mixed crowd", [], [], true],
    ["Narnia", [], [], true],
    ["TBA", [], [], false],
    ["-", [], [], false],
    ["", [], [], false],
  ])("%p → %p, unsupported %p, unrecognised %p", (cell, codes, unsupported, unrecognised) => {
    expect(readNationalityCell(cell)).toEqual({ codes, unsupported, unrecognised } as never);
  });
});

test("host and audience codes are united in first-seen order", () => {
  expect(parseNationality("FR", "GB/FR, NL")).toEqual({ codes: ["FR", "UK", "NL"], unsupported: [], unrecognised: false });
  expect(parseNationality("", "")).toEqual({ codes: [], unsupported: [], unrecognised: false });
  expect(parseNationality("US", "us")).toEqual({ codes: [], unsupported: ["us"], unrecognised: false });
  expect(parseNationality("FR", "Narnia")).toEqual({ codes: ["FR"], unsupported: [], unrecognised: true });
});

test.each([
  ["UK", { flag: "🇬🇧", code: "GB" }],
  ["FR", { flag: "🇫🇷", code: "FR" }],
  ["CA", { flag: "🇨🇦", code: "CA" }],
  ["NL", { flag: "🇳🇱", code: "NL" }],
])("display %p → %p", (code, display) => {
  expect(nationalityDisplay(code as never)).toEqual(display);
});
