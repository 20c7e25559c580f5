// The forgiving search at the HTTP boundary (docs/filters-and-search.md, "Search"): GET /api/events?q=
// and the homepage's results fragment, in French and English, over a store sheet written for it.
// Folding, genre synonyms, chip and setting words, typos (with what must NOT match), the exact /
// folded / typo ranking and "Did you mean".

import { beforeAll, describe, expect, test } from "bun:test";
import { HTMX_HEADERS, useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

// The test clock stands at 2026-06-21 12:00 in Paris: "tonight" runs from 18:00 to 06:00 on the 22nd.
const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Price,Categories,Setting,Notes",
  "Soirés du Canal,2026-06-20,19:00,23:00,Quai de Jemmapes,10,€5,Chanson,Outdoor,",
  "Soiree Salsa,2026-06-20,20:00,23:00,Salle Wagram,17,€10,Salsa,Indoor,",
  "La Grande Soirée,2026-06-20,21:00,23:30,Le Trianon,18,€20,Variété,Indoor,",
  "Pigalle Hip Hop Cypher,2026-06-21,20:30,,Place Pigalle,18,Free,Hip Hop,Outdoor,Open mic.",
  "Trap Night,2026-06-22,23:00,05:00,Le Glazart,19,€12,Trap,Indoor,",
  "Rap Contenders,2026-06-20,20:00,23:00,Élysée Montmartre,18,€15,Rap,Indoor,",
  "Afro House Sunset,2026-06-21,17:00,22:00,Péniche Marcounet,4,€8,Afro House,Outdoor,",
  "Afro House Sunrise,2026-06-22,05:00,09:00,Péniche Marcounet,4,€8,Afro House,Outdoor,",
  "Marais Soul Brunch,2026-06-20,12:00,15:00,Café des Archives,3,€25,R&B,Indoor,",
  "Warehouse Rave,2026-06-23,23:00,06:00,Entrepôt 13,13,€15,Techno,Indoor,",
  "Quai Session,2026-06-19,18:00,21:00,Canal Saint-Martin,10,€10,Jazz,Outdoor,",
  "Fête au Parc,2026-06-19,15:00,18:00,Parc de Bercy,12,Free,Pop,Outdoor,",
  "Batignolles Sound Garden,2026-06-20,14:00,22:00,Square des Batignolles,17,€10,Electro,Outdoor,",
  "Amapiano Rooftop,2026-06-20,22:00,02:00,Le Perchoir,11,€15,Amapiano,Outdoor,",
  "Chez l'Olympia,2026-06-20,20:00,23:00,L'Olympia,9,€30,Pop,Indoor,",
  "Caribbean Kompa Ball,2026-06-20,21:00,01:00,Salle Maine,14,€8,Kompa,Indoor,",
].join("\n");

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });

beforeAll(async () => {
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
  if (!saved.ok) throw new Error(saved.error);
}, 60_000);

async function api(q: string): Promise<{ names: string[]; body: any }> {
  const res = await ctx.request(`/api/events?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  return { names: body.events.map((event: any) => event.eventName), body };
}

/** The homepage's results fragment (htmx) for a search, in a language. */
async function fragment(q: string, language: "fr" | "en", extra = ""): Promise<string> {
  // The test helpers' root language is English; French lives under /fr/.
  const res = await ctx.request(`${language === "fr" ? "/fr" : ""}/?q=${encodeURIComponent(q)}${extra}`, { headers: HTMX_HEADERS });
  expect(res.status).toBe(200);
  return res.text();
}

/** The event titles listed as cards in a homepage body. */
function cardTitles(html: string): string[] {
  const start = html.indexOf('class="card-grid event-list"');
  if (start < 0) return [];
  const list = html.slice(start, html.indexOf("</ol>", start));
  return [...list.matchAll(/<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "").replace(/&#39;/g, "'").replace(/&amp;/g, "&").trim());
}

describe("folding: accents, case, hyphens, apostrophes and spaces", () => {
  const cases: [string, string][] = [
    ["hiphop", "Pigalle Hip Hop Cypher"],
    ["HIP-HOP", "Pigalle Hip Hop Cypher"],
    ["canal saint martin", "Quai Session"],
    ["CANAL SAINT-MARTIN", "Quai Session"],
    ["canalsaintmartin", "Quai Session"],
    ["fete", "Fête au Parc"],
    ["FÊTE", "Fête au Parc"],
    ["lolympia", "Chez l'Olympia"],
    ["l olympia", "Chez l'Olympia"],
    ["cafe des archives", "Marais Soul Brunch"],
  ];
  for (const [q, name] of cases) {
    test(`/api/events?q=${q} finds ${name}`, async () => {
      expect((await api(q)).names).toContain(name);
    });
  }

  test("the homepage fragment folds the same way, in French and English", async () => {
    for (const language of ["fr", "en"] as const) {
      expect(cardTitles(await fragment("hiphop", language))).toEqual(["Pigalle Hip Hop Cypher"]);
      expect(cardTitles(await fragment("canal saint martin", language))).toEqual(["Quai Session"]);
    }
  });
});

describe("synonyms: the genre alias table and the words of the chips and settings", () => {
  test("afrohouse, rnb / R'n'B / soul and techno find their genres", async () => {
    expect((await api("afrohouse")).names.sort()).toEqual(["Afro House Sunrise", "Afro House Sunset"]);
    for (const q of ["rnb", "R'n'B", "r and b", "soul"]) expect((await api(q)).names).toEqual(["Marais Soul Brunch"]);
    expect((await api("techno")).names).toEqual(["Warehouse Rave"]);
  });

  test("gratuit and free find the free events, in either language", async () => {
    const free = ["Fête au Parc", "Pigalle Hip Hop Cypher"];
    expect((await api("gratuit")).names.sort()).toEqual(free);
    expect((await api("free")).names.sort()).toEqual(free);
    expect(cardTitles(await fragment("gratuit", "fr")).sort()).toEqual(free);
    expect(cardTitles(await fragment("free", "en")).sort()).toEqual(free);
  });

  test("ce soir and tonight find what runs tonight (18:00–06:00), whatever the page's language", async () => {
    // Trap Night starts at 23:00 on the 22nd: tomorrow night, not tonight.
    const tonight = ["Afro House Sunrise", "Afro House Sunset", "Pigalle Hip Hop Cypher"];
    expect((await api("ce soir")).names.sort()).toEqual(tonight);
    expect((await api("tonight")).names.sort()).toEqual(tonight);
    expect(cardTitles(await fragment("ce soir", "en")).sort()).toEqual(tonight);
    expect(cardTitles(await fragment("tonight", "fr")).sort()).toEqual(tonight);
  });

  test("plein air, plein-air and outdoor find the outdoor venues; words combine with AND", async () => {
    const outdoor = (await api("outdoor")).names.sort();
    expect(outdoor).toEqual(["Afro House Sunrise", "Afro House Sunset", "Amapiano Rooftop", "Batignolles Sound Garden", "Fête au Parc", "Pigalle Hip Hop Cypher", "Quai Session", "Soirés du Canal"]);
    expect((await api("plein air")).names.sort()).toEqual(outdoor);
    expect((await api("plein-air")).names.sort()).toEqual(outdoor);
    expect((await api("gratuit plein air")).names.sort()).toEqual(["Fête au Parc", "Pigalle Hip Hop Cypher"]);
    expect((await api("hip hop ce soir")).names).toEqual(["Pigalle Hip Hop Cypher"]);
  });
});

describe("typos: words of 5+ letters, a swap counts one", () => {
  test("amapaino, Baitgnolles, Pigale and a half-typed word with a slip find their events", async () => {
    expect((await api("amapaino")).names).toEqual(["Amapiano Rooftop"]);
    // The 17e is Batignolles-Monceau: arrondissement names are searched too.
    expect((await api("Baitgnolles")).names).toEqual(["Soiree Salsa", "Batignolles Sound Garden"]);
    expect((await api("Pigale")).names.sort()).toEqual(["Pigalle Hip Hop Cypher"]);
    expect((await api("batgnol")).names).toEqual(["Soiree Salsa", "Batignolles Sound Garden"]);
    for (const language of ["fr", "en"] as const) expect(cardTitles(await fragment("amapaino", language))).toEqual(["Amapiano Rooftop"]);
  });

  test("must NOT match: rap is not trap, short words get no typo, and typos are bounded by length", async () => {
    expect((await api("rap")).names).toEqual(["Rap Contenders"]);
    expect(cardTitles(await fragment("rap", "fr"))).toEqual(["Rap Contenders"]);
    expect(cardTitles(await fragment("rap", "en"))).toEqual(["Rap Contenders"]);
    // Four letters: no typo allowed ("jaz" is a prefix, "jazs" is not a word).
    expect((await api("jazs")).names).toEqual([]);
    // Five letters allow one edit, not two.
    expect((await api("kmpoa")).names).toEqual([]);
    // Eight letters allow two edits, not three.
    expect((await api("amapainoo")).names).toEqual(["Amapiano Rooftop"]);
    expect((await api("amaaiinoo")).names).toEqual([]);
    // Words start where the field's words start.
    expect((await api("ouse")).names).toEqual([]);
  });
});

describe("ranking: exact, then folded, then typo", () => {
  test("soirée: the accented title first, then the unaccented one, then the misspelt one", async () => {
    // The sheet lists them typo, folded, exact.
    expect((await api("soirée")).names).toEqual(["La Grande Soirée", "Soiree Salsa", "Soirés du Canal"]);
    expect(cardTitles(await fragment("soirée", "fr"))).toEqual(["La Grande Soirée", "Soiree Salsa", "Soirés du Canal"]);
  });
});

describe("did you mean", () => {
  test("the API answers a respelling that finds more events", async () => {
    const { body } = await api("kmpoa");
    expect(body.count).toBe(0);
    expect(body.suggestion).toEqual({ q: "Kompa", count: 1 });
    expect((await api("zuk")).body.suggestion).toBeUndefined(); // nothing close enough in the list
    expect((await api("Caribbean")).body.suggestion).toBeUndefined(); // found: nothing to suggest
  });

  test("the fragment offers it as a plain link in French and English, keeping the other filters", async () => {
    const fr = await fragment("kmpoa", "fr", "&in=indoor");
    expect(fr).toContain("Vous vouliez dire");
    expect(fr).toMatch(/<a href="\/fr\/\?in=indoor&q=Kompa"[^>]*hx-get="\/fr\/\?in=indoor&q=Kompa"[^>]*data-did-you-mean[^>]*><strong>Kompa<\/strong><\/a><span> \?<\/span>/);
    expect(fr).toContain("(1 événement)");
    const en = await fragment("kmpoa", "en");
    expect(en).toContain("Did you mean");
    expect(en).toMatch(/<a href="\/\?q=Kompa"[^>]*><strong>Kompa<\/strong><\/a><span>\?<\/span>/);
    expect(en).toContain("(1 event)");
    expect(await fragment("kompa", "en")).not.toContain("data-did-you-mean");
  });

  test("without JavaScript: the full page carries the link, and following it lists the event", async () => {
    const res = await ctx.request("/fr/?q=kmpoa");
    expect(res.status).toBe(200);
    const html = await res.text();
    const href = /<a href="([^"]+)"[^>]*data-did-you-mean/.exec(html)?.[1];
    expect(href).toBe("/fr/?q=Kompa");
    const followed = await ctx.request(href!);
    expect(followed.status).toBe(200);
    expect(cardTitles(await followed.text())).toEqual(["Caribbean Kompa Ball"]);
  });
});
