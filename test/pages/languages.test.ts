// Languages over HTTP (docs/languages.md), with the production default (DEFAULT_LANGUAGE unset,
// so French): the language comes from the URL (French at /, English under /en/), old links
// (?lang=, the former switch's cookie) are redirected, the render cache is keyed on the language,
// hreflang, the calendar files (ical.js) and preview images (PNG decode) in both languages, and
// every public page's words in both catalogues.

import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { useTestApp } from "../helpers/app.ts";
import { decodePng } from "../helpers/png.ts";
import { GENRES } from "../../src/lib/sheet/genres.ts";
import { catalogue, translate } from "../../src/lib/i18n/index.ts";

const ctx = useTestApp({ env: { DEFAULT_LANGUAGE: undefined } });

/** The English address of a French one: "/en" before the path ("/" → "/en/"). */
const inEnglish = (path: string) => `/en${path}`;

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await ctx.request(path, { headers });
  return { res, body: await res.text() };
}

/** The text nodes of a page's <body>, scripts and styles left out. */
function textNodes(html: string): string[] {
  const body = html.slice(html.indexOf("<body"));
  return body
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<svg[\s\S]*?<\/svg>/g, "")
    .split(/<[^>]+>/)
    .map((text) =>
      text
        .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
        .replace(/&amp;/g, "&")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((text) => /\p{L}{2,}/u.test(text));
}

describe("choosing the language", () => {
  test("the URL chooses: French at /, English under /en/; headers and cookies are not read", async () => {
    const plain = await page("/");
    expect(plain.body).toContain('<html lang="fr">');
    expect(plain.res.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    const english = await page("/en/");
    expect(english.body).toContain('<html lang="en">');
    expect(english.res.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    expect((await page("/", { "accept-language": "en-US,en;q=0.9" })).body).toContain('<html lang="fr">');
    expect((await page("/en/")).body).toContain('<html lang="en">');
    expect((await page("/en")).body).toContain('<html lang="en">');
    expect((await page("/en/submit-event")).body).toContain('<html lang="en">');
    // A French path that merely starts with the letters "en" stays French (and here unknown).
    expect((await ctx.request("/enquete")).status).toBe(404);
  });

  test("the render cache keeps one entry per language: a cached French page is never served in English", async () => {
    const first = await page("/?g=house");
    const again = await page("/?g=house");
    expect(again.res.headers.get("x-cache")).toBe("HIT");
    const english = await page("/en/?g=house");
    expect(english.res.headers.get("x-cache")).toBe("MISS");
    expect(first.body).toContain('<html lang="fr">');
    expect(english.body).toContain('<html lang="en">');
  });

  test("old links: ?lang= and the former switch's cookie are redirected to the URL form, never cached publicly", async () => {
    const query = await ctx.request("/submit-event?lang=en&x=1", { redirect: "manual" });
    expect(query.status).toBe(302);
    expect(query.headers.get("location")).toBe("/en/submit-event?x=1");
    expect(query.headers.get("cache-control")).toContain("no-store");
    const french = await ctx.request("/?g=house&lang=fr", { redirect: "manual" });
    expect(french.headers.get("location")).toBe("/?g=house");
    const cookie = await ctx.request("/?g=house", { headers: { cookie: "lang=en" }, redirect: "manual" });
    expect(cookie.status).toBe(302);
    expect(cookie.headers.get("location")).toBe("/en/?g=house");
    expect(cookie.headers.get("cache-control")).toContain("no-store");
    // The cookie is cleared, so the FR link from an English page is not sent back to English.
    expect(cookie.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await ctx.request("/", { headers: { cookie: "lang=fr" }, redirect: "manual" })).status).toBe(200);
    // The former switch: back to the page it was clicked on, in the URL form.
    const switched = await ctx.request("/language/en", { headers: { referer: "http://finder.test/submit-event?lang=fr" }, redirect: "manual" });
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/en/submit-event");
    const back = await ctx.request("/language/fr", { headers: { referer: "http://finder.test/en/terms" }, redirect: "manual" });
    expect(back.headers.get("location")).toBe("/terms");
    const away = await ctx.request("/language/en", { headers: { referer: "https://elsewhere.example/x" }, redirect: "manual" });
    expect(away.headers.get("location")).toBe("/en/");
    expect((await ctx.request("/language/de")).status).toBe(404);
  });

  test("the FR/EN switch is a plain link to the same page in the other language", async () => {
    expect((await page("/terms")).body).toContain('href="/en/terms"');
    expect((await page("/en/terms")).body).toContain('href="/terms"');
    expect((await page("/?g=house")).body).toContain('href="/en/?g=house"');
  });

  test("pages link within their language: navigation, filters and fragments stay under /en/", async () => {
    const body = (await page("/en/")).body;
    expect(body).toContain('href="/en/submit-event"');
    expect(body).toContain('hx-get="/en/"');
    expect(body).not.toContain('href="/submit-event"');
    const fragment = await ctx.request("/en/?g=house", { headers: { "hx-request": "true" } });
    expect(fragment.headers.get("hx-push-url")).toBe("/en/?g=house");
  });

  test("public pages carry hreflang alternates (fr, en, x-default)", async () => {
    for (const path of ["/submit-event", "/feature-event", "/privacy", "/terms"]) {
      for (const body of [(await page(path)).body, (await page(inEnglish(path))).body]) {
        expect(body).toContain(`hreflang="fr" href="http://finder.test${path}"`);
        expect(body).toContain(`hreflang="en" href="http://finder.test/en${path}"`);
        expect(body).toContain(`hreflang="x-default" href="http://finder.test${path}"`);
      }
    }
  });
});

describe("dates and places", () => {
  test("cards and the modal show the month: 'dim. 21 juin' / 'Sun 21 June'; '10e arrondissement' / '10th arrondissement'", async () => {
    const fr = (await page("/?event=evt_fixture000001&slug=canal-amapiano-sunset")).body;
    expect(fr).toContain("dim. 21 juin · 10e arrondissement");
    expect(fr).toContain("18:00–23:00");
    expect(fr).toContain("lang=fr");
    const english = (await page(inEnglish("/?event=evt_fixture000001&slug=canal-amapiano-sunset"))).body;
    expect(english).toContain("Sun 21 June · 10th arrondissement");
    // The share preview's image URL carries the language.
    expect(english).toMatch(/og:image" content="[^"]*lang=en/);
    expect(fr).toMatch(/og:image" content="[^"]*lang=fr/);
  });
});

describe("calendar files and preview images", () => {
  test("an event's .ics in French and in English, parsed with ical.js", async () => {
    const read = async (query: string) => {
      const res = await ctx.request(`/api/events/evt_fixture000001/calendar.ics${query}`);
      expect(res.status).toBe(200);
      const vevent = new ICAL.Component(ICAL.parse(await res.text())).getFirstSubcomponent("vevent")!;
      return { description: String(vevent.getFirstPropertyValue("description")), location: String(vevent.getFirstPropertyValue("location")) };
    };
    const fr = await read("?lang=fr");
    expect(fr.description).toContain("Prix : Gratuit");
    expect(fr.location).toContain("10e arrondissement");
    const en = await read("?lang=en");
    expect(en.description).toContain("Price: Free");
    expect(en.location).toContain("10th arrondissement");
  });

  test("the filtered feed names itself in the chosen language", async () => {
    const name = async (query: string) => {
      const calendar = new ICAL.Component(ICAL.parse(await (await ctx.request(`/calendar.ics${query}`)).text()));
      return String(calendar.getFirstPropertyValue("x-wr-calname") ?? "");
    };
    expect(await name("?in=outdoor&lang=fr")).toContain("Cadre : Extérieur");
    expect(await name("?in=outdoor&lang=en")).toContain("Setting: Outdoor");
  });

  test("preview images render in both languages as valid PNGs that differ", async () => {
    const image = async (lang: string) => {
      const res = await ctx.request(`/api/og?variant=default&eventCount=12&lang=${lang}`);
      expect(res.headers.get("content-type")).toBe("image/png");
      const bytes = new Uint8Array(await res.arrayBuffer());
      const png = decodePng(bytes);
      expect([png.width, png.height]).toEqual([1200, 630]);
      return Buffer.from(bytes).toString("base64");
    };
    expect(await image("fr")).not.toBe(await image("en"));
  });
});

describe("every visitor-facing word is in both catalogues", () => {
  // Text that is a name, not a sentence of the site: the site's name and the festival's.
  // Words spelt the same in both languages are listed here too.
  const DATA = /^(finder|Fête de la Musique|Fête de la Musique, Paris|Paris · Fête de la Musique|Paris|API|Notes|Date|Dates|Genres|Arrondissements?|arrondissements?|Min|Max|Culture|Interactions|Contact|Audience|Genre|Arrondissement|Questions|finder ·|\d+ km|[A-Z]{2}|\d+(er|e) - .+|[\w.:-]*[_.:][\w.:-]*|lang)$/;
  const genreLabels = new Set(GENRES.map((genre) => genre.label));
  // Only what the team writes in the sheet counts as data: names, venues, notes, tags. Fields the
  // site works out (type, category, price label, weekday) must come from the catalogues.
  const SHEET_TEXT = ["eventName", "location", "description"] as const;

  test.each([
    "/",
    "/?g=house",
    "/?dn=night",
    "/?q=nothing-matches-this",
    "/?event=evt_fixture000005&slug=bastille-dancehall-night",
    "/?event=evt_fixture000010&slug=trocadero-pop-choir",
    "/my-night?e=evt_fixture000001,evt_fixture000005,evt_fixture000007",
    "/submit-event",
    "/feature-event",
    "/feature-event/status",
    "/privacy",
    "/terms",
    "/partner-success",
    "/sign-in",
    "/no-such-page",
  ])("%s: French and English text nodes differ", async (path) => {
    const fr = textNodes((await page(path)).body);
    const en = textNodes((await page(inEnglish(path))).body);
    const enSet = new Set(en);
    const data = new Set<string>();
    // What the sheet puts on the page reads the same in both: collect it from the live events.
    for (const event of (await ctx.deps.events.load()).events) {
      for (const field of SHEET_TEXT) if (typeof event[field] === "string") data.add(event[field].trim());
      for (const tag of event.tags) data.add(tag);
    }
    const same = fr.filter((text) => enSet.has(text) && !DATA.test(text) && ![...data].some((value) => value.includes(text)) && !genreLabels.has(text) && !/^[\d\s€%:./–+·-]+$/.test(text) && !text.includes("@"));
    expect([...new Set(same)]).toEqual([]);
  });
});

describe("labels a French visitor reads (kinds, banner, stats, prices)", () => {
  const fr = catalogue("fr");
  const en = catalogue("en");
  const KIND_KEYS = ["event.category.party", "event.category.activity", "event.category.culture", "event.category.food", "event.category.wellness", "event.type.afterParty"] as const;
  const frKinds = new Set<string>(KIND_KEYS.map((key) => translate("fr", key)));
  const enKinds = new Set<string>(KIND_KEYS.map((key) => translate("en", key)));
  const card = (html: string, key: string) => {
    const at = html.indexOf(`data-event-key="${key}"`);
    return at < 0 ? "" : html.slice(at, html.indexOf("</article>", at));
  };
  const all = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]);
  const kindsOf = (html: string) => all(html, /class="(?:tag tag-kind|badge badge-kind)">([^<]*)</g);
  const priceOf = (html: string) => all(html, /class="tag tag-(?:price|free)">([^<]*)</g)[0];
  const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, "&");

  test("category labels come from the catalogue and the card and the modal agree: a choir concert is 'Culture', a late dancehall night 'Fête' and 'After'", async () => {
    const home = (await page("/")).body;
    const cases: [key: string, slug: string, frKinds: string[], enKinds: string[]][] = [
      ["evt_fixture000010", "trocadero-pop-choir", ["Culture"], ["Culture"]],
      ["evt_fixture000005", "bastille-dancehall-night", ["Fête", "After"], ["Party", "After party"]],
      ["evt_fixture000004", "pigalle-hip-hop-cypher", [], []], // no category, not an after party: no kind at all
      ["evt_fixture000003", "marais-jazz-funk-brunch", ["À boire et à manger"], ["Food & Drinks"]],
    ];
    for (const [key, slug, expectedFr, expectedEn] of cases) {
      expect(kindsOf(card(home, key)).map(decode)).toEqual(expectedFr);
      const modal = (await page(`/?event=${key}&slug=${slug}`)).body;
      const dialog = modal.slice(modal.indexOf('id="event-modal"'));
      expect(kindsOf(dialog).map(decode)).toEqual(expectedFr);
      const modalEn = (await page(inEnglish(`/?event=${key}&slug=${slug}`))).body;
      expect(kindsOf(modalEn.slice(modalEn.indexOf('id="event-modal"'))).map(decode)).toEqual(expectedEn);
    }
    // Every kind label of every French card is a French catalogue label; no English one anywhere.
    const kinds = kindsOf(home).map(decode);
    expect(kinds.length).toBeGreaterThan(5);
    for (const kind of kinds) expect(frKinds.has(kind)).toBe(true);
    const english = new Set(["Day Party", "After Party", ...[...enKinds].filter((label) => !frKinds.has(label))]);
    expect(textNodes(home).filter((text) => english.has(text))).toEqual([]);
  });

  test("the default banner messages exist in both languages and the French page shows the French ones", async () => {
    const keys = ["banner.default.date", "banner.default.calendar", "banner.default.filters", "banner.default.submit"] as const;
    const frHome = decode((await page("/")).body);
    const enHome = decode((await page(inEnglish("/"))).body);
    for (const key of keys) {
      expect(fr[key]).not.toBe(en[key]);
      expect(frHome).toContain(fr[key] as string);
      expect(frHome).not.toContain(en[key] as string);
      expect(enHome).toContain(en[key] as string);
    }
  });

  test("no 'TBC' or 'TBA' on the French pages: stats without dates, an event without time, place or price", async () => {
    for (const path of ["/", "/?q=nothing-matches-this", "/?event=evt_fixture000007&slug=mystery-warehouse-party", "/my-night?e=evt_fixture000007"]) {
      const body = (await page(path)).body;
      // The whole page, attributes and meta tags included.
      expect(body.match(/\bTB[AC]\b/g) ?? []).toEqual([]);
    }
    const stats = (await page("/?q=nothing-matches-this")).body;
    expect(stats.slice(stats.indexOf('id="stats"'), stats.indexOf("</section>", stats.indexOf('id="stats"')))).toContain("à confirmer");
  });

  test("prices are formatted from the parsed value by each language's conventions, the same on the card and in the modal", async () => {
    const frHome = decode((await page("/")).body);
    const enHome = decode((await page(inEnglish("/"))).body);
    // Sheet cells "€15", "£10", "12" (bare), "Free", "TBA".
    const cases: [key: string, fr: string, en: string][] = [
      ["evt_fixture000002", "15\u00a0€", "€15"],
      ["evt_fixture000005", "10\u00a0£", "£10"],
      ["evt_fixture000008", "12\u00a0€", "€12"],
      ["evt_fixture000001", "Gratuit", "Free"],
      ["evt_fixture000007", "à confirmer", "TBA"],
    ];
    for (const [key, frLabel, enLabel] of cases) {
      expect(priceOf(card(frHome, key))).toBe(frLabel);
      expect(priceOf(card(enHome, key))).toBe(enLabel);
    }
    const modal = decode((await page("/?event=evt_fixture000002&slug=belleville-rooftop-house")).body);
    expect(modal).toContain("<dd>15\u00a0€</dd>");
    // No French card price keeps the sheet's spelling: an amount always ends with its sign.
    for (const price of all(frHome, /class="tag tag-(?:price|free)">([^<]*)</g)) expect(price).toMatch(/^(Gratuit|à confirmer|[\d\u202f]+(,\d\d)?(–[\d\u202f]+(,\d\d)?)?\u00a0[€£])$/);
  });
});
