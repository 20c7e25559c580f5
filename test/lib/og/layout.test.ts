import { describe, expect, test } from "bun:test";
import { drawnText, ogLayout, titleSize, OG_ACCENT } from "../../../src/lib/og/layout.ts";
import { readOgFonts } from "../../../src/lib/og/fonts.ts";
import { parseOgParams } from "../../../src/lib/og/params.ts";

const site = { name: "finder", host: "finder.test" };

function texts(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (Array.isArray(node)) return node.flatMap(texts);
  if (node && typeof node === "object" && "props" in node) return texts((node as { props: { children?: unknown } }).props.children);
  return [];
}

describe("OG layout", () => {
  test.each([
    ["🎶 Fête 🇫🇷 night 👩‍🎤", Infinity, "Fête night"],
    ["a   b", Infinity, "a b"],
    ["abcdefghij", 5, "abcd…"],
  ])("drawnText(%p, %p) = %p", (input, max, expected) => {
    expect(drawnText(input, max)).toBe(expected);
  });

  test("the title is about 77 px and shrinks as it grows", () => {
    expect(titleSize("Canal Amapiano Sunset")).toBe(77);
    expect(titleSize("x".repeat(110))).toBeLessThan(50);
  });

  test("pills, brand, count and footer of the preview layout", () => {
    const tree = ogLayout(parseOgParams(new URLSearchParams("variant=event-modal&arrondissement=11e&eventCount=5&date=Sat&time=20:00&price=Free&venue=Bar&genres=House,Disco"), "finder"), site);
    const all = texts(tree);
    for (const text of ["FINDER · FÊTE DE LA MUSIQUE", "Event Focus", "5 events live", "Events in 11e", "5 live picks for your Paris route.", "Sat", "20:00", "Free", "Bar", "House", "Disco", "11E · PARIS", "FINDER.TEST"]) expect(all).toContain(text);
    expect(JSON.stringify(tree)).toContain(OG_ACCENT["event-modal"]);
    const plain = texts(ogLayout(parseOgParams(new URLSearchParams(""), "finder"), site));
    expect(plain).toContain("City Guide");
    expect(plain).toContain("PARIS");
    expect(plain.some((t) => t.includes("events live"))).toBe(false);
  });
});

describe("OG fonts", () => {
  test("the bundled fonts load; a missing file falls back to the next candidate or is left out", () => {
    const fonts = readOgFonts();
    expect(fonts.map((f) => f.name)).toEqual(expect.arrayContaining(["Display", "Display Ext", "Sans", "Sans Ext"]));
    const fallback = readOgFonts([
      { name: "Display", weight: 400, files: ["/nonexistent/display.woff", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"] },
      { name: "Sans", weight: 400, files: ["/nonexistent/sans.woff"] },
    ]);
    expect(fallback.map((f) => f.name)).toEqual(["Display"]);
  });
});
