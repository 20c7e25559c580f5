// The host's edit link in Chromium on a phone (390×844), in French: a host submits an event that
// repeats a listed one and reads what happens next; the moderator sees the duplicate hint and
// accepts; the host opens the edit link from the queued "accepted" email, moves the start time;
// the moderator sees the diff (published → proposed) and accepts it; the host cancels and
// visitors see "Annulé" at once.

import { expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { loginAsAdmin } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { translate } from "../../src/lib/i18n/index.ts";
import { renderMessage, type MessageKind } from "../../src/lib/mail/templates.ts";
import { withPrivateLinks } from "../../src/lib/mail/secret-links.ts";
import type { TestContext } from "../helpers/app.ts";

const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Categories,Price,Event Key",
  "Jazz sur le Canal,2026-06-21,20:30,23:00,Canal Saint-Martin,10,Jazz,Gratuit,evt_aaaaaaaaaaaaaaaa",
  "Bal de la Place,2026-06-21,20:00,23:45,Place des Fêtes,19,Pop,Gratuit,evt_bbbbbbbbbbbbbbbb",
].join("\n");

const { ctx, server, browser } = useBrowserApp({
  env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" },
  seed: async (app: TestContext) => {
    app.clock.set("2026-06-18T10:00:00Z");
    const saved = await saveStoreSheet(app.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: app.clock.now() });
    if (!saved.ok) throw new Error(saved.error);
  },
});

const fr = (key: Parameters<typeof translate>[1], params?: Record<string, string>) => translate("fr", key, params);

async function moderatorPage(b: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(b, "phone", { locale: "fr-FR" });
  const { token } = await loginAsAdmin(ctx);
  await context.addCookies([{ name: "finder_admin_session", value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  return { context, page: await context.newPage() };
}

/**
 * The first link after `label` in the text part of the queued message of `kind`, as the outbox
 * worker writes it out at send time (the outbox and its API hold no private link).
 */
async function emailedLink(kind: string, label: string): Promise<string> {
  const [message] = await ctx.deps.database.query<{ kind: MessageKind; language: string; params: Record<string, unknown> }>(sql`select kind, language, params from outbox_messages where kind = ${kind} order by created_at desc limit 1`);
  expect(message).toBeDefined();
  const text = renderMessage(message!.kind, message!.language, withPrivateLinks(ctx.deps.config, message!.kind, message!.language, message!.params, "send")).text;
  const after = text.slice(text.indexOf(label) + label.length);
  return after.match(/https?:\/\/\S+/)![0];
}

test("phone, French: submit, accepted with the duplicate hint, the emailed edit link moves the time (moderated as a diff) and cancels", async () => {
  const host = await newContext(browser, "phone", { locale: "fr-FR" });
  const hostPage = await host.newPage();
  const hostErrors = collectConsoleErrors(hostPage);
  const moderator = await moderatorPage(browser);
  try {
    // 1. The host submits the canal jazz night (already listed: a likely duplicate).
    await hostPage.goto(`${server.url}/submit-event?lang=fr`);
    await hostPage.getByLabel(fr("submit.field.eventName")).fill("Jazz sur le Canal");
    await hostPage.getByLabel(fr("submit.field.date")).fill("2026-06-21");
    await hostPage.getByLabel(fr("submit.field.startTime")).fill("20:30");
    await hostPage.getByLabel(fr("submit.field.location")).fill("Canal Saint-Martin");
    await hostPage.getByLabel(fr("submit.field.hostEmail")).fill("hote@example.com");
    await hostPage.getByLabel(fr("submit.field.proofLink")).fill("jazz-canal.example");
    await hostPage.getByRole("button", { name: fr("submit.send") }).click();
    await hostPage.getByText(fr("submit.thanks")).waitFor();
    for (const step of ["submit.next.review", "submit.next.email", "submit.next.editLink"] as const) await hostPage.getByText(fr(step)).waitFor();
    await screenshot(hostPage, "host-edit-thanks-phone");

    // 2. The moderator sees the duplicate hint and accepts.
    await moderator.page.goto(`${server.url}/admin/content`);
    const item = moderator.page.locator("#submissions-card article.submission", { hasText: "Jazz sur le Canal" });
    await item.locator(".submission-duplicates").waitFor();
    expect(await item.locator(".submission-duplicates").textContent()).toContain("Likely duplicate of");
    expect(await item.locator(".submission-duplicates a").first().getAttribute("href")).toContain("evt_aaaaaaaaaaaaaaaa");
    await screenshot(moderator.page, "host-edit-duplicate-hint-phone");
    await item.getByRole("button", { name: "Accept" }).click();
    await moderator.page.locator("#submissions-card .notice", { hasText: "Accepted" }).waitFor();
    const [{ key }] = await ctx.deps.database.query<{ key: string }>(sql`select accepted_event_key as key from event_submissions`);

    // 3. The host opens the edit link of the "accepted" email and moves the start time.
    const editUrl = await emailedLink("submission_accepted", fr("email.accepted.editLink"));
    expect(editUrl).toContain("/edit-event/");
    await hostPage.goto(editUrl.replace("http://finder.test", server.url));
    await hostPage.getByRole("heading", { name: "Jazz sur le Canal" }).waitFor();
    expect(await hostPage.locator("html").getAttribute("lang")).toBe("fr");
    await hostPage.getByLabel(fr("edit.field.startTime")).fill("21:30");
    await hostPage.getByRole("button", { name: fr("edit.propose.submit") }).click();
    await hostPage.getByText(fr("edit.sent")).waitFor();
    await hostPage.locator("[data-edit-pending]", { hasText: "20:30 → 21:30" }).waitFor();
    // Nothing fits wider than the phone.
    expect(await hostPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(hostPage, "host-edit-proposed-phone");

    // 4. The moderator sees the diff and accepts it; the change is published.
    await moderator.page.goto(`${server.url}/admin/content`);
    const change = moderator.page.locator(`#host-changes-card article[data-change-event="${key}"]`);
    const row = change.locator('tr[data-field="startTime"]');
    await row.waitFor();
    expect(await row.locator(".diff-before").textContent()).toContain("20:30");
    expect(await row.locator(".diff-after").textContent()).toContain("21:30");
    await screenshot(moderator.page, "host-edit-diff-phone");
    await change.getByRole("button", { name: "Accept and publish" }).click();
    await moderator.page.locator("#host-changes-card .notice", { hasText: "published" }).waitFor();
    const listed = (await (await ctx.request("/api/events")).json()) as { events: { eventKey: string; startTime?: string; time?: string }[] };
    expect(JSON.stringify(listed.events.find((e) => e.eventKey === key))).toContain("21:30");

    // 5. The host cancels: visitors see it at once.
    await hostPage.reload();
    await hostPage.getByLabel(fr("edit.cancel.note")).fill("Orage annoncé");
    await hostPage.getByLabel(fr("edit.cancel.confirm")).check();
    await hostPage.getByRole("button", { name: fr("edit.cancel.submit") }).click();
    await hostPage.getByText(fr("edit.cancelled")).waitFor();
    await screenshot(hostPage, "host-edit-cancelled-phone");
    await hostPage.goto(`${server.url}/?lang=fr`);
    const card = hostPage.locator(`#results article.card[data-event-key="${key}"]`);
    await expect(card.locator(".status-badge").textContent()).resolves.toBe("Annulé");
    await expect(card.locator(".status-note").textContent()).resolves.toBe("Orage annoncé");
    expect(hostErrors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
  } finally {
    await host.close();
    await moderator.context.close();
  }
}, 120_000);
