// The message catalogues (docs/languages.md): the same keys in French and English, no empty
// message, markup only in "Html" keys, the request's language, and Intl formatting.

import { describe, expect, test } from "bun:test";
import { fr } from "../../../src/lib/i18n/fr.ts";
import { en } from "../../../src/lib/i18n/en.ts";
import { acceptedLanguage, formatDay, formatOrdinal, inLanguage, requestLanguage, t, translate } from "../../../src/lib/i18n/index.ts";

const texts = (value: unknown): string[] => (typeof value === "string" ? [value] : Object.values(value as Record<string, string>));

describe("catalogues", () => {
  test("French and English have exactly the same keys", () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
  });

  test("no message is empty, plural messages have an 'other' form, and the two languages differ in shape only where plurals differ", () => {
    for (const catalogue of [fr, en]) {
      for (const [key, value] of Object.entries(catalogue)) {
        for (const text of texts(value)) expect({ key, empty: text.trim() === "" }).toEqual({ key, empty: false });
        if (typeof value !== "string") expect(typeof (value as { other?: string }).other).toBe("string");
      }
    }
  });

  test("markup only in keys ending in Html; both languages use the same placeholders", () => {
    for (const catalogue of [fr, en]) {
      for (const [key, value] of Object.entries(catalogue)) {
        if (!key.endsWith("Html")) for (const text of texts(value)) expect({ key, markup: /<[a-z/]/i.test(text) }).toEqual({ key, markup: false });
      }
    }
    const placeholders = (value: unknown) => [...new Set(texts(value).flatMap((text) => text.match(/\{\w+\}/g) ?? []))].sort();
    for (const key of Object.keys(fr) as (keyof typeof fr)[]) expect({ key, names: placeholders(en[key]) }).toEqual({ key, names: placeholders(fr[key]) });
  });
});

describe("request language", () => {
  const request = (url: string, headers: Record<string, string> = {}) => new Request(`http://finder.test${url}`, { headers });

  test("?lang wins, then the cookie, then Accept-Language by q-value, then the default", () => {
    expect(requestLanguage(request("/?lang=en", { cookie: "lang=fr", "accept-language": "fr" }), "fr")).toBe("en");
    expect(requestLanguage(request("/?lang=de", { cookie: "lang=en" }), "fr")).toBe("en");
    expect(requestLanguage(request("/", { cookie: "a=1; lang=en", "accept-language": "fr" }), "fr")).toBe("en");
    expect(requestLanguage(request("/", { cookie: "lang=xx", "accept-language": "en-US,en;q=0.9" }), "fr")).toBe("en");
    expect(requestLanguage(request("/"), "fr")).toBe("fr");
    expect(requestLanguage(request("/"), "en")).toBe("en");
    expect(requestLanguage(request("/", { "accept-language": "de-DE" }), "fr")).toBe("fr");
  });

  test("Accept-Language: fr* is French, en* English, the higher q wins, q=0 refuses", () => {
    expect(acceptedLanguage("fr-CA")).toBe("fr");
    expect(acceptedLanguage("en-GB")).toBe("en");
    expect(acceptedLanguage("de, en;q=0.5, fr;q=0.8")).toBe("fr");
    expect(acceptedLanguage("fr;q=0, en;q=0.1")).toBe("en");
    expect(acceptedLanguage("de, it")).toBeNull();
    expect(acceptedLanguage(null)).toBeNull();
  });
});

describe("Intl formatting", () => {
  test("dates with the month, ordinals and plurals in each language", () => {
    expect(formatDay("2026-06-21", "fr")).toBe("dim. 21 juin");
    expect(formatDay("2026-06-21", "en")).toBe("Sun 21 June");
    expect(formatDay("2026-02-30", "fr")).toBe("à confirmer");
    expect([1, 2, 11, 20].map((n) => formatOrdinal(n, "fr"))).toEqual(["1er", "2e", "11e", "20e"]);
    expect([1, 2, 3, 11, 20, 21].map((n) => formatOrdinal(n, "en"))).toEqual(["1st", "2nd", "3rd", "11th", "20th", "21st"]);
    expect(inLanguage("fr", () => t("arrondissement.long", { ordinal: formatOrdinal(20) }))).toBe("20e arrondissement");
    expect(translate("en", "arrondissement.long", { ordinal: formatOrdinal(20, "en") })).toBe("20th arrondissement");
    expect(translate("fr", "home.sticky", { count: 1 })).toBe("1 événement");
    expect(translate("fr", "home.sticky", { count: 1500 })).toBe("1\u202f500 événements");
    expect(translate("en", "home.sticky", { count: 1500 })).toBe("1,500 events");
  });
});
