// The message catalogues (docs/languages.md): the same keys in French and English, no empty
// message, markup only in "Html" keys, the request's language, and Intl formatting.

import { describe, expect, test } from "bun:test";
import { fr } from "../../../src/lib/i18n/fr.ts";
import { en } from "../../../src/lib/i18n/en.ts";
import { cookieLanguage, formatCount, formatDay, formatDayRange, formatOrdinal, inLanguage, t, translate } from "../../../src/lib/i18n/index.ts";
import { languageOfUrl } from "../../../src/pages/language.plugin.ts";

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

describe("the language of a URL", () => {
  const site = { basePath: "", rootLanguage: "fr" as const };
  const under = { basePath: "/fete", rootLanguage: "fr" as const };

  test("the root language at /, the other under its prefix; the path alone is kept for the switch", () => {
    expect(languageOfUrl("http://finder.test/", site)).toEqual({ language: "fr", path: "/" });
    expect(languageOfUrl("http://finder.test/en", site)).toEqual({ language: "en", path: "/" });
    expect(languageOfUrl("http://finder.test/en/", site)).toEqual({ language: "en", path: "/" });
    expect(languageOfUrl("http://finder.test/en/submit-event?x=1", site)).toEqual({ language: "en", path: "/submit-event" });
    expect(languageOfUrl("http://finder.test/en?g=house", site)).toEqual({ language: "en", path: "/" });
    expect(languageOfUrl("http://finder.test/enquete", site)).toEqual({ language: "fr", path: "/enquete" });
    expect(languageOfUrl("http://finder.test/fr/terms", site)).toEqual({ language: "fr", path: "/fr/terms" });
    // A calendar file or preview image names its language with ?lang=.
    expect(languageOfUrl("http://finder.test/calendar.ics?lang=en", site).language).toBe("en");
    // The console and the JSON API are English unless ?lang= says otherwise.
    expect(languageOfUrl("http://finder.test/admin/insights", site).language).toBe("en");
    expect(languageOfUrl("http://finder.test/api/admin/sheet?lang=fr", site).language).toBe("fr");
    expect(languageOfUrl("http://finder.test/api/events", site).language).toBe("en");
    expect(languageOfUrl("http://finder.test/api/og?variant=default", site).language).toBe("fr");
    expect(languageOfUrl("http://finder.test/api/events/evt_x/calendar.ics", site).language).toBe("fr");
    // With English at the root, French is the prefixed one.
    expect(languageOfUrl("http://finder.test/fr/terms", { basePath: "", rootLanguage: "en" })).toEqual({ language: "fr", path: "/terms" });
  });

  test("under a base path the prefix follows it", () => {
    expect(languageOfUrl("http://finder.test/fete/", under)).toEqual({ language: "fr", path: "/" });
    expect(languageOfUrl("http://finder.test/fete", under)).toEqual({ language: "fr", path: "/" });
    expect(languageOfUrl("http://finder.test/fete/en/my-night", under)).toEqual({ language: "en", path: "/my-night" });
  });

  test("the former switch's cookie is read for its redirect only", () => {
    expect(cookieLanguage("a=1; lang=en")).toBe("en");
    expect(cookieLanguage("lang=xx")).toBeNull();
    expect(cookieLanguage(null)).toBeNull();
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

  test("kept counts, plural forms and day labels read as Intl gives them, asked for again and again", () => {
    // Small whole counts are kept per language: the same texts and forms as Intl's, on every ask,
    // with negative zero, fractions and large counts left to Intl.
    for (const language of ["fr", "en"] as const) {
      const locale = language === "fr" ? "fr-FR" : "en-GB";
      const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
      const plurals = new Intl.PluralRules(locale);
      for (const round of [1, 2]) {
        for (const n of [0, 1, 2, 5, 21, 999, 1500, 9999, 10_000, 123_456, 1.5, -0, -3]) {
          expect(`${round}:${formatCount(n, language)}`).toBe(`${round}:${numbers.format(n)}`);
          const form = plurals.select(n);
          const expected = language === "fr" ? `${numbers.format(n)} ${form === "one" ? "événement" : "événements"}` : `${numbers.format(n)} ${form === "one" ? "event" : "events"}`;
          expect(translate(language, "home.sticky", { count: n })).toBe(expected);
        }
      }
    }
    expect(translate("fr", "home.sticky", { count: 0 })).toBe("0 événement");
    expect(translate("en", "home.sticky", { count: 0 })).toBe("0 events");
    expect(formatCount(-0, "fr")).toBe(new Intl.NumberFormat("fr-FR").format(-0));
    // Day labels and ranges are kept per language and dates.
    for (const round of [1, 2]) {
      expect(inLanguage("en", () => formatDay("2026-06-21"))).toBe("Sun 21 June");
      expect(inLanguage("fr", () => formatDay("2026-06-21"))).toBe("dim. 21 juin");
      expect(formatDayRange("2026-06-19", "2026-06-22", "fr")).toBe(new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", timeZone: "Europe/Paris" }).formatRange(new Date("2026-06-19T10:00:00Z"), new Date("2026-06-22T10:00:00Z")));
      expect(formatDayRange("2026-06-21", "2026-06-21", "en")).toBe("21 June");
      expect(formatDayRange("a|b", "2026-06-21", "en")).toBe("TBC");
      expect(formatDayRange("2026-06-21", "x|y", "fr")).toBe("21 juin");
    }
  });
});
