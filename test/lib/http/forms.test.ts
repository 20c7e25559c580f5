// One query value read and written without URLSearchParams (src/lib/http/forms.ts): the same text as
// URLSearchParams gives, for every kind of character a search can hold, malformed escapes included.

import { expect, test } from "bun:test";
import { formDecoded, formEncoded } from "../../../src/lib/http/forms.ts";

// Letters, digits, the characters the two encodings treat differently, escapes (whole, cut short,
// not UTF-8, an encoded surrogate), accents, emoji, lone surrogates, separators and markup.
const PIECES = ["a", "Z", "0", " ", "+", "%", "%2", "%20", "%2B", "%E9", "%C3%A9", "%ZZ", "%F0%9F", "%ED%A0%80", "é", "É", "œ", "€", "😀", "\uD800", "\uDC00", "!", "'", "(", ")", "~", "*", "-", ".", "_", "=", "?", "/", "\t", "\n", "<", ">", '"', "\u0000", "\u200B"];

/** Every text of up to `length` pieces drawn by a seeded generator (the same run each time). */
function texts(count: number, length: number): string[] {
  let state = 42;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * (length + 1)) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join(""));
}

test("formEncoded writes a value exactly as URLSearchParams does", () => {
  for (const text of [...PIECES, ...texts(20_000, 8)]) expect(formEncoded(text), JSON.stringify(text)).toBe(new URLSearchParams([["q", text]]).toString().slice("q=".length));
});

test("formDecoded reads a raw value exactly as URLSearchParams does, malformed escapes included", () => {
  // A raw value never holds "&" or "#" (the one ends it, the other ends the query).
  for (const raw of [...PIECES, ...texts(20_000, 8)].map((text) => text.replace(/[&#]/g, ""))) expect(formDecoded(raw), JSON.stringify(raw)).toBe(new URLSearchParams(`q=${raw}`).get("q")!);
});

test("what one writes the other reads back (well-formed text)", () => {
  for (const text of texts(5_000, 8).map((t) => t.toWellFormed())) expect(formDecoded(formEncoded(text))).toBe(text);
});
