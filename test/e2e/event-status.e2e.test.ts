// Status markers on a phone in French at 21:30 on 21 June (Paris): an event cancelled from the
// console reads "Annulé" with its reason, struck through and listed last; one whose time moved in a
// later publish reads "Modifié à 17:00"; one first published today reads "Nouveau"; a draft never
// shows; live states ("En cours · jusqu'à 23:30", "Dernière heure", "Dans 30 min") are drawn and
// kept current by the browser. The modal carries the same line.

import { expect, test } from "bun:test";
import { createClock, postJson } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Categories,Price,Event Key",
  "Concert du Canal,2026-06-21,16:00,23:30,Canal Saint-Martin,10,Jazz,Gratuit,evt_aaaaaaaaaaaaaaaa",
  "Bal de la Place,2026-06-21,20:00,23:45,Place des Fêtes,19,Pop,Gratuit,evt_bbbbbbbbbbbbbbbb",
  "Chorale du Parvis,2026-06-21,21:00,23:00,Parvis Notre-Dame,4,Classique,Gratuit,evt_cccccccccccccccc",
  "Fanfare de Minuit,2026-06-21,22:00,23:30,Place de la République,3,Jazz,Gratuit,evt_dddddddddddddddd",
  "Apéro Électro,2026-06-21,19:00,22:15,Bassin de la Villette,19,Électro,Gratuit,evt_eeeeeeeeeeeeeeee",
].join("\n");

const admin = (method: string, path: string, body?: unknown) => postJson(ctx, path, body, ADMIN_KEY_HEADER, method);

const { ctx, server, browser } = useBrowserApp({
  clock: createClock("2026-06-20T10:00:00Z"),
  env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv", DEFAULT_LANGUAGE: undefined },
  seed: async (ctx) => {
    const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: ctx.clock.now() });
    if (!saved.ok) throw new Error(saved.error);
    // 21 June, 17:00 Paris: the canal concert moves to 17:30 and a new stage is added, both published.
    ctx.clock.set("2026-06-21T15:00:00Z");
    const sheet = await (await admin("GET", "/api/admin/sheet")).json();
    const canal = sheet.rows.find((r: { values: Record<string, string> }) => r.values.title === "Concert du Canal").id;
    const edited = await admin("PATCH", "/api/admin/sheet", {
      baseRevision: sheet.meta.revision,
      cells: [{ rowId: canal, key: "startTime", value: "17:30" }],
      addRows: [{ values: { title: "Nouvelle Scène", date: "2026-06-21", startTime: "21:00", endTime: "23:59", location: "Square du Temple", area: "3", categories: "Rock", price: "5" } }],
      publish: true,
    });
    if (edited.status !== 200) throw new Error(await edited.text());
    // 21:10 Paris: the ball is cancelled from the console; a later draft never reaches visitors.
    ctx.clock.set("2026-06-21T19:10:00Z");
    const cancelled = await admin("POST", "/api/admin/events/status", { event: "evt_bbbbbbbbbbbbbbbb", status: "cancelled", note: "Orage : annulé par la mairie" });
    if (cancelled.status !== 200) throw new Error(await cancelled.text());
    const again = await (await admin("GET", "/api/admin/sheet")).json();
    const choir = again.rows.find((r: { values: Record<string, string> }) => r.values.title === "Chorale du Parvis").id;
    await admin("PATCH", "/api/admin/sheet", { baseRevision: again.meta.revision, cells: [{ rowId: choir, key: "title", value: "Chorale BROUILLON" }] });
    ctx.clock.set(AT);
  },
});

test("phone, French, 21:30: cancelled, updated and new markers on the cards and in the modal; no draft", async () => {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.clock.setFixedTime(AT);
    await page.goto(`${server.url}/`);
    const list = page.locator("#results article.card");
    const keys = await list.evaluateAll((cards) => cards.map((c) => c.getAttribute("data-event-key")));
    expect(keys.at(-1)).toBe("evt_bbbbbbbbbbbbbbbb");
    const ball = page.locator('#results article.card[data-event-key="evt_bbbbbbbbbbbbbbbb"]');
    await expect(ball.locator(".status-badge").textContent()).resolves.toBe("Annulé");
    await expect(ball.locator(".status-note").textContent()).resolves.toBe("Orage : annulé par la mairie");
    expect(await ball.locator(".card-link").evaluate((a) => getComputedStyle(a).textDecorationLine)).toContain("line-through");
    const canal = page.locator('#results article.card[data-event-key="evt_aaaaaaaaaaaaaaaa"]');
    await expect(canal.locator(".status-updated").textContent()).resolves.toBe("Modifié à 17:00");
    await expect(canal.locator(".card-when").textContent()).resolves.toContain("17:30");
    const fresh = page.locator("#results article.card", { hasText: "Nouvelle Scène" });
    await expect(fresh.locator(".status-new").textContent()).resolves.toBe("Nouveau");
    // First published on the 20th: nothing else is new.
    expect(await page.locator("#results .status-new").count()).toBe(1);
    // Live states at 21:30: on until its end, in its last hour, starting in 30 minutes; none on the cancelled ball.
    const live = (key: string) => page.locator(`#results article.card[data-event-key="${key}"] .live-state`);
    await expect(live("evt_aaaaaaaaaaaaaaaa").textContent()).resolves.toBe("En cours · jusqu'à 23:30");
    await expect(live("evt_eeeeeeeeeeeeeeee").textContent()).resolves.toBe("Dernière heure");
    await expect(live("evt_dddddddddddddddd").textContent()).resolves.toBe("Dans 30 min");
    expect(await live("evt_bbbbbbbbbbbbbbbb").count()).toBe(0);
    // The browser keeps them current without a request: at 22:05 the brass band is on.
    await page.clock.setFixedTime(new Date(AT.getTime() + 35 * 60_000));
    await page.evaluate(() => document.body.dispatchEvent(new Event("htmx:afterSettle")));
    await expect(live("evt_dddddddddddddddd").textContent()).resolves.toBe("En cours · jusqu'à 23:30");
    expect(await page.content()).not.toContain("BROUILLON");
    await screenshot(page, "event-status-phone-fr");

    await ball.locator(".card-link").click();
    await page.locator("dialog#event-modal[open]").waitFor();
    await expect(page.locator("dialog#event-modal .status-badge").textContent()).resolves.toBe("Annulé");
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 90_000);
