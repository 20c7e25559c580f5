// Sanity checks and duplicate hints of host submissions, at the HTTP boundary: the JSON API and
// the /submit-event form refuse a date outside the festival, an arrondissement outside 1-20, an
// end before the start and a malformed link, and store nothing; the moderation card shows the
// checks and links a likely duplicate of a listed event or of another submission.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

let n = 0;
function body(overrides: Record<string, string> = {}) {
  n++;
  return { eventName: `Jazz on the Canal ${n}`, date: "2026-06-21", startTime: "20:30", location: "Canal Saint-Martin", hostEmail: `host${n}@example.com`, proofLink: `https://jazz.example/${n}`, formStartedAt: "2026-06-18T09:55:00.000Z", ...overrides };
}
const api = (payload: unknown, language = "en") =>
  ctx.request(`/api/event-submissions?lang=${language}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${(n % 200) + 1}` }, body: JSON.stringify(payload) });
const storedCount = async () => Number((await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_submissions`))[0].n);

describe("POST /api/event-submissions: sanity checks", () => {
  const refused: [string, Record<string, string>, { field: string; code: string; message: string }][] = [
    ["a date after the festival", { date: "2026-07-14" }, { field: "date", code: "outsideFestival", message: "Date must be inside the festival (2026-06-15 to 2026-06-22)" }],
    ["a date before it", { date: "2026-06-01" }, { field: "date", code: "outsideFestival", message: "Date must be inside the festival (2026-06-15 to 2026-06-22)" }],
    ["last year's festival", { date: "2025-06-21" }, { field: "date", code: "outsideFestival", message: "Date must be inside the festival (2026-06-15 to 2026-06-22)" }],
    ["no calendar date", { date: "31/02/2026" }, { field: "date", code: "date", message: "Date must be a calendar date (YYYY-MM-DD)" }],
    ["arrondissement 42", { arrondissement: "42" }, { field: "arrondissement", code: "arrondissement", message: "Arrondissement must be 1 to 20, or unknown" }],
    ["arrondissement 0", { arrondissement: "0" }, { field: "arrondissement", code: "arrondissement", message: "Arrondissement must be 1 to 20, or unknown" }],
    ["an end before the start", { startTime: "18:00", endTime: "17:00" }, { field: "endTime", code: "endBeforeStart", message: "End time must be after the start time" }],
    ["an end equal to the start", { startTime: "18:00", endTime: "18:00" }, { field: "endTime", code: "endBeforeStart", message: "End time must be after the start time" }],
    ["a start that is no time", { startTime: "after dinner" }, { field: "startTime", code: "time", message: "Time must be written HH:MM" }],
    ["a link that is not one", { proofLink: "not a link" }, { field: "proofLink", code: "proofLink", message: "Proof link must be an HTTP(S) URL" }],
    ["a link to no host", { proofLink: "https://intranet/x" }, { field: "proofLink", code: "proofLink", message: "Proof link must be an HTTP(S) URL" }],
  ];
  for (const [name, overrides, issue] of refused) {
    test(`${name} → 400 naming the field; nothing stored`, async () => {
      const res = await api(body(overrides));
      expect(res.status).toBe(400);
      const answer = (await res.json()) as any;
      expect(answer.success).toBe(false);
      expect(answer.issues).toContainEqual(expect.objectContaining(issue));
      expect(await storedCount()).toBe(0);
    });
  }

  test("accepted: a night that ends after midnight, 10e, 75011, unknown, a date written in words", async () => {
    for (const overrides of <Record<string, string>[]>[{ startTime: "23:00", endTime: "02:00" }, { arrondissement: "10e" }, { arrondissement: "75011" }, { arrondissement: "unknown" }, { date: "21 June" }, { date: "2026-06-22" }]) {
      const res = await api(body(overrides));
      expect({ overrides, status: res.status }).toEqual({ overrides, status: 200 });
    }
    expect(await storedCount()).toBe(6);
  });

  test("after the festival the window moves to next year", async () => {
    ctx.clock.set("2026-09-01T10:00:00Z");
    expect((await api(body({ date: "2026-06-21" }))).status).toBe(400);
    expect((await api(body({ date: "2027-06-20" }))).status).toBe(200);
  });
});

describe("/submit-event form: the same checks, in the visitor's language", () => {
  const post = (fields: Record<string, string>, language: string) =>
    ctx.request(language === "en" ? "/submit-event" : `/${language}/submit-event`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.250" },
      body: new URLSearchParams({ ...body(), endTime: "", arrondissement: "", ...fields }).toString(),
    });
  test("French: the festival dates, the arrondissement and the end time, each under its field", async () => {
    const res = await post({ date: "2026-07-14" }, "fr");
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/<p class="field-error" id="submit-date-error">La date doit tomber pendant la Fête de la Musique \(du [^<]*15 juin au [^<]*22 juin\)<\/p>/);
    const area = await (await post({ arrondissement: "42" }, "fr")).text();
    expect(area).toContain("L&#x27;arrondissement va de 1 à 20 (ou « inconnu »)");
    const end = await (await post({ startTime: "20:00", endTime: "19:00" }, "fr")).text();
    expect(end).toContain("L&#x27;heure de fin doit être après l&#x27;heure de début");
    expect(await storedCount()).toBe(0);
  });
  test("English", async () => {
    const html = await (await post({ date: "2026-07-14" }, "en")).text();
    expect(html).toContain('<p class="field-error" id="submit-date-error">The date must fall during Fête de la Musique (Mon 15 June to Mon 22 June)</p>');
  });
});

describe("moderation card: checks and duplicate hints with links", () => {
  const insert = async (payload: Record<string, string>, status = "pending") => {
    const [row] = await ctx.deps.database.query<{ id: string }>(sql`insert into event_submissions (status, payload, host_email) values (${status}, ${JSON.stringify(payload)}::jsonb, 'h@example.org') returning id`);
    return row.id;
  };
  const card = async () => {
    const res = await ctx.request("/admin/content?status=pending", { headers: { "x-admin-key": TEST_ADMIN_KEY } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const itemOf = (html: string, id: string) => html.slice(html.indexOf(`id="submission-${id}"`), html.indexOf("</article>", html.indexOf(`id="submission-${id}"`)));

  test("a submission stored before the checks shows each failed check on its card", async () => {
    const id = await insert({ eventName: "Odd One", date: "2026-07-14", startTime: "18:00", endTime: "17:00", location: "Somewhere", arrondissement: "42", proofLink: "https://odd.example" });
    const item = itemOf(await card(), id);
    expect(item).toContain('data-check="outsideFestival"');
    expect(item).toContain("Date must be inside the festival (2026-06-15 to 2026-06-22)");
    expect(item).toContain('data-check="arrondissement"');
    expect(item).toContain('data-check="endBeforeStart"');
    expect(item).not.toContain("Likely duplicate");
  });

  test("a likely duplicate of a listed event links to the event; of another submission, to that submission", async () => {
    const listed = await insert({ eventName: "Canal Amapiano Sunset (live)", date: "2026-06-21", startTime: "18:00", location: "Quai de Valmy", proofLink: "https://x.example" });
    const first = await insert({ eventName: "Rooftop Techno at Ménilmontant", date: "2026-06-20", startTime: "22:00", location: "Le Perchoir", proofLink: "https://a.example" });
    const second = await insert({ eventName: "rooftop techno — Menilmontant", date: "2026-06-20", startTime: "23:00", location: "Elsewhere", proofLink: "https://b.example" });
    const clean = await insert({ eventName: "Quiet Harp Recital", date: "2026-06-19", startTime: "11:00", location: "Chapel", proofLink: "https://c.example" });
    const html = await card();
    const listedItem = itemOf(html, listed);
    expect(listedItem).toContain('<a href="/event/evt_fixture000001/canal-amapiano-sunset" data-duplicate="event">listed event “Canal Amapiano Sunset” (2026-06-21 18:00)</a>');
    expect(itemOf(html, second)).toContain(`<a href="/admin/content?status=pending#submission-${first}" data-duplicate="submission">submission “Rooftop Techno at Ménilmontant” (2026-06-20 22:00)</a>`);
    expect(itemOf(html, first)).toContain(`href="/admin/content?status=pending#submission-${second}"`);
    expect(itemOf(html, clean)).not.toContain("Likely duplicate");
    // The link to the listed event works.
    const share = await ctx.request("/event/evt_fixture000001/canal-amapiano-sunset");
    expect(share.status).toBe(307);
  });
});
