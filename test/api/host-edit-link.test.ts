// The host's private edit link (issue 28, bullet 2) over real HTTP: the link in the accepted email
// opens the page (no cache, no Referer); token checks (missing 400, wrong 403, unknown 404, revoked
// 410) write nothing; the link names one event and grants nothing else; a proposal is a diff
// against the published row that visitors do not see until a moderator accepts it (published
// alone, emailed) or refuses it with a reason (emailed); a cancellation is public at once; every
// action is on the activity timeline.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { renderMessage } from "../../src/lib/mail/templates.ts";
import { withPrivateLinks } from "../../src/lib/mail/secret-links.ts";

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });
const JSON_KEY = { ...ADMIN_KEY_HEADER, "content-type": "application/json" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
  const saved = await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
  if (!saved.ok) throw new Error(saved.error);
});

let n = 0;
const admin = async (path: string, body?: unknown, method = "POST") => {
  const res = await ctx.request(path, { method, headers: JSON_KEY, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const query = <T,>(statement: ReturnType<typeof sql>) => ctx.deps.database.query<T>(statement);

/** A submission accepted by a moderator; returns its ids and the edit link from the queued email. */
async function acceptedEvent(name = `Canal Session ${++n}`, language = "fr") {
  const outcome = await submitEvent(
    ctx.deps,
    { eventName: name, date: "2026-06-21", startTime: "19:00", endTime: "23:00", location: "Quai de Valmy", arrondissement: "10", hostEmail: `host${n}@example.com`, proofLink: `canal.example/${n}`, notes: "Bring a blanket." },
    `192.0.2.${n}`,
    language as "fr" | "en",
  );
  if (outcome.kind !== "received") throw new Error(JSON.stringify(outcome));
  const accepted = await admin(`/api/admin/submissions/${outcome.id}/accept`, {});
  expect(accepted.status).toBe(200);
  const eventKey = accepted.body.eventKey as string;
  // The outbox names the link; the worker writes it out at send time, as here.
  const [mail] = await query<{ language: string; params: Record<string, unknown> }>(sql`select language, params from outbox_messages where dedupe_key = ${`submission:${outcome.id}:accepted`}`);
  const editUrl = String(withPrivateLinks(ctx.deps.config, "submission_accepted", mail.language, mail.params, "send").editUrl);
  const url = new URL(editUrl);
  return { submissionId: outcome.id, eventKey, editUrl, path: url.pathname, token: url.searchParams.get("token")!, linkId: url.pathname.split("/").pop()! };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const propose = (link: { path: string; token: string }, fields: Record<string, string>) => ctx.request(link.path, { method: "POST", headers: FORM, body: form({ token: link.token, ...fields }) });
const cancel = (link: { path: string; token: string }, fields: Record<string, string>) => ctx.request(`${link.path}/cancel`, { method: "POST", headers: FORM, body: form({ token: link.token, ...fields }) });
const apiEvent = async (key: string) => {
  const body = (await (await ctx.request("/api/events")).json()) as { events: { eventKey: string; time?: string; startTime?: string; location?: string; status: string }[] };
  return body.events.find((e) => e.eventKey === key);
};
const proposals = async () => (await query<{ n: number }>(sql`select count(*)::int as n from host_change_requests`))[0].n;

describe("the link in the accepted email", () => {
  test("opens the event's page in the host's language, never cached, without Referer; the database holds only a keyed hash", async () => {
    const link = await acceptedEvent("Canal Session", "fr");
    expect(link.editUrl.startsWith("http://finder.test/edit-event/")).toBe(true);
    const res = await ctx.request(`${link.path}?token=${link.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("Modifier votre événement");
    expect(html).toContain("Canal Session");
    expect(html).toContain('value="19:00"');
    const english = await (await ctx.request(`${link.path}?token=${link.token}&lang=en`)).text();
    expect(english).toContain("Edit your event");
    // The footer's switch sets the lang cookie: it wins over the language the host submitted in.
    const byCookie = await (await ctx.request(`${link.path}?token=${link.token}`, { headers: { cookie: "lang=en" } })).text();
    expect(byCookie).toContain('<html lang="en"');
    const [row] = await query<{ token_hash: string; event_key: string }>(sql`select token_hash, event_key from host_edit_links`);
    expect(row.event_key).toBe(link.eventKey);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(link.token);
    const dump = JSON.stringify(await query(sql`select * from host_edit_links`));
    expect(dump).not.toContain(link.token);
    // The accepted email's text part carries the working link.
    const [mail] = await query<{ kind: string; language: string; params: Record<string, unknown> }>(sql`select kind, language, params from outbox_messages where kind = 'submission_accepted'`);
    expect(renderMessage("submission_accepted", mail.language, withPrivateLinks(ctx.deps.config, "submission_accepted", mail.language, mail.params, "send")).text).toContain(link.editUrl);
    expect(JSON.stringify(mail.params)).not.toContain(link.token);
  });

  test("token checks: missing 400, wrong 403, malformed or unknown link 404; nothing written", async () => {
    const link = await acceptedEvent();
    expect((await ctx.request(link.path)).status).toBe(400);
    const wrong = link.token.slice(0, -2) + (link.token.endsWith("AA") ? "BB" : "AA");
    expect((await ctx.request(`${link.path}?token=${wrong}`)).status).toBe(403);
    expect((await ctx.request(`${link.path}?token=short`)).status).toBe(403);
    expect((await ctx.request(`/edit-event/not-a-uuid?token=${link.token}`)).status).toBe(404);
    expect((await ctx.request(`/edit-event/00000000-0000-4000-8000-000000000000?token=${link.token}`)).status).toBe(404);
    expect((await propose({ path: link.path, token: wrong }, { startTime: "21:00" })).status).toBe(403);
    expect((await propose({ path: link.path, token: "" }, { startTime: "21:00" })).status).toBe(400);
    expect((await cancel({ path: link.path, token: wrong }, { confirm: "yes" })).status).toBe(403);
    expect(await proposals()).toBe(0);
    expect((await apiEvent(link.eventKey))?.status).toBe("scheduled");
  });

  test("a link names one event: another link's id answers 403 to this token, and fields naming another event are ignored", async () => {
    const a = await acceptedEvent("Canal Session A");
    const b = await acceptedEvent("Canal Session B");
    expect((await ctx.request(`${b.path}?token=${a.token}`)).status).toBe(403);
    expect((await propose({ path: b.path, token: a.token }, { startTime: "21:00" })).status).toBe(403);
    expect((await cancel({ path: b.path, token: a.token }, { confirm: "yes" })).status).toBe(403);
    const res = await propose(a, { startTime: "21:00", eventKey: b.eventKey, event: b.eventKey, title: "Hijacked", status: "cancelled" });
    expect(res.status).toBe(200);
    const [row] = await query<{ event_key: string; changes: Record<string, unknown> }>(sql`select event_key, changes from host_change_requests`);
    expect(row.event_key).toBe(a.eventKey);
    expect(Object.keys(row.changes)).toEqual(["startTime"]);
    expect((await apiEvent(b.eventKey))?.status).toBe("scheduled");
    // The link opens no console page.
    expect((await ctx.request(`/admin/content?token=${a.token}`)).status).toBe(401);
    expect((await ctx.request(`/api/admin/changes?token=${a.token}`)).status).toBe(401);
  });
});

describe("proposals wait as a diff; the moderator accepts or refuses", () => {
  test("bad input answers 400 with the field marked, nothing written", async () => {
    const link = await acceptedEvent();
    const cases: Record<string, string>[] = [{ startTime: "25:99" }, { endTime: "18:00" }, { area: "42" }, { primaryUrl: "not a link" }, { location: "" }, { startTime: "19:00" }];
    for (const fields of cases) {
      const res = await propose(link, fields);
      expect([fields, res.status]).toEqual([fields, 400]);
      expect(await res.text()).toContain(fields.startTime === "19:00" ? "Vous n&#x27;avez rien changé" : 'aria-invalid="true"');
    }
    const json = await ctx.request(link.path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: link.token, startTime: 2100 }) });
    expect(json.status).toBe(400);
    expect(await proposals()).toBe(0);
  });

  test("a proposal is a diff against the published row, invisible to visitors until accepted; accepting publishes that row and emails the host", async () => {
    const link = await acceptedEvent("Canal Session");
    const res = await propose(link, { startTime: "21:00", endTime: "23:00", location: "Quai de Jemmapes", area: "10", notes: "Bring a blanket.", primaryUrl: `canal.example/${n}` });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Vos changements attendent la relecture");
    expect(page).toContain("19:00 → 21:00");
    // Visitors still see the published row.
    expect(await apiEvent(link.eventKey)).toMatchObject({ location: "Quai de Valmy" });

    const listed = await admin("/api/admin/changes", undefined, "GET");
    expect(listed.status).toBe(200);
    expect(listed.body.changes).toHaveLength(1);
    const change = listed.body.changes[0];
    expect(change).toMatchObject({ eventKey: link.eventKey, title: "Canal Session", status: "pending", published: true });
    expect(change.fields).toEqual([
      { field: "startTime", current: "19:00", proposed: "21:00", changedSince: false },
      { field: "location", current: "Quai de Valmy", proposed: "Quai de Jemmapes", changedSince: false },
    ]);

    // The console card shows the diff.
    const card = await (await ctx.request("/admin/content/changes", { headers: { ...ADMIN_KEY_HEADER, "hx-request": "true" } })).text();
    expect(card).toContain("Quai de Valmy");
    expect(card).toContain("Quai de Jemmapes");

    const accepted = await admin(`/api/admin/changes/${change.id}/accept`);
    expect(accepted.status).toBe(200);
    expect(await apiEvent(link.eventKey)).toMatchObject({ location: "Quai de Jemmapes", status: "scheduled" });
    expect((await apiEvent(link.eventKey)) as any).toMatchObject({ time: expect.stringContaining("21:00") });
    expect((await admin(`/api/admin/changes/${change.id}/accept`)).status).toBe(409);
    expect((await admin(`/api/admin/changes/${change.id}/refuse`, { reason: "late" })).status).toBe(409);

    const [mail] = await query<{ kind: string; language: string; recipient: string; params: Record<string, unknown> }>(sql`select kind, language, recipient, params from outbox_messages where kind = 'changes_accepted'`);
    expect(mail.recipient).toBe(`host${n}@example.com`);
    const text = renderMessage("changes_accepted", mail.language, mail.params).text;
    expect(text).toContain("Heure de début : 19:00 → 21:00");
    expect(text).toContain("Lieu : Quai de Valmy → Quai de Jemmapes");
    const actions = (await query<{ action: string; actor: string }>(sql`select action, actor from admin_activity order by at, id`)).map((r) => `${r.action} ${r.actor.startsWith("host-link:") ? "host" : r.actor}`);
    expect(actions).toEqual(expect.arrayContaining(["change.propose host", "change.accept admin-key"]));
  });

  test("refusing needs a reason, leaves the event as published and emails the reason; a newer proposal supersedes the pending one", async () => {
    const link = await acceptedEvent("Canal Session", "en");
    expect((await propose(link, { startTime: "20:00" })).status).toBe(200);
    expect((await propose(link, { startTime: "20:30" })).status).toBe(200);
    const rows = await query<{ status: string; changes: any }>(sql`select status, changes from host_change_requests order by created_at, status`);
    expect(rows.map((r) => r.status).sort()).toEqual(["pending", "superseded"]);
    const { body } = await admin("/api/admin/changes", undefined, "GET");
    expect(body.changes).toHaveLength(1);
    const id = body.changes[0].id;
    expect(body.changes[0].fields[0]).toMatchObject({ field: "startTime", proposed: "20:30" });
    expect((await admin(`/api/admin/changes/${id}/refuse`, { reason: "" })).status).toBe(400);
    expect((await admin(`/api/admin/changes/${id}/refuse`, {})).status).toBe(400);
    const refused = await admin(`/api/admin/changes/${id}/refuse`, { reason: "The venue confirmed 19:00 to us" });
    expect(refused.status).toBe(200);
    expect((await apiEvent(link.eventKey)) as any).toMatchObject({ time: expect.stringContaining("19:00") });
    const [mail] = await query<{ language: string; params: Record<string, unknown> }>(sql`select language, params from outbox_messages where kind = 'changes_refused'`);
    const text = renderMessage("changes_refused", mail.language, mail.params).text;
    expect(text).toContain("Reason: The venue confirmed 19:00 to us");
    expect(text).toContain("Start time: 19:00 → 20:30");
    expect((await query<{ n: number }>(sql`select count(*)::int as n from admin_activity where action = 'change.refuse'`))[0].n).toBe(1);
  });
});

test("two proposals of one event at the same moment both answer 200 and leave one pending", async () => {
  const link = await acceptedEvent();
  const answers = await Promise.all([propose(link, { startTime: "20:00" }), propose(link, { startTime: "20:15" }), propose(link, { startTime: "20:30" })]);
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  const rows = await query<{ status: string }>(sql`select status from host_change_requests`);
  expect(rows.filter((r) => r.status === "pending")).toHaveLength(1);
  expect(rows).toHaveLength(3);
});

describe("cancel and revoke", () => {
  test("a cancellation needs the confirmation and is public at once, on the timeline under the link", async () => {
    const link = await acceptedEvent();
    const unconfirmed = await cancel(link, { note: "Storm" });
    expect(unconfirmed.status).toBe(400);
    expect((await apiEvent(link.eventKey))?.status).toBe("scheduled");
    expect((await cancel(link, { confirm: "yes", note: "x".repeat(400) })).status).toBe(400);
    expect((await apiEvent(link.eventKey))?.status).toBe("scheduled");
    const res = await cancel(link, { confirm: "yes", note: "Orage annoncé" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("événement est annulé. Les visiteurs voient « Annulé »");
    expect(await apiEvent(link.eventKey)).toMatchObject({ status: "cancelled" });
    const home = await (await ctx.request("/fr/")).text();
    expect(home).toContain("Annulé");
    const [entry] = await query<{ actor: string; target_id: string }>(sql`select actor, target_id from admin_activity where action = 'event.status'`);
    expect(entry).toEqual({ actor: `host-link:${link.linkId}`, target_id: link.eventKey });
    // The page now says so and offers no second cancellation.
    const page = await (await ctx.request(`${link.path}?token=${link.token}`)).text();
    expect(page).toContain("data-edit-cancelled");
    expect(page).not.toContain("data-cancel-form");
  });

  test("a revoked link answers 410 and writes nothing; a new link is emailed and works, the old one stays revoked", async () => {
    const link = await acceptedEvent();
    const revoked = await admin(`/api/admin/submissions/${link.submissionId}/edit-link/revoke`);
    expect(revoked).toEqual({ status: 200, body: { success: true, revoked: 1 } });
    expect((await ctx.request(`${link.path}?token=${link.token}`)).status).toBe(410);
    expect((await propose(link, { startTime: "21:00" })).status).toBe(410);
    expect((await cancel(link, { confirm: "yes" })).status).toBe(410);
    expect(await proposals()).toBe(0);
    expect((await apiEvent(link.eventKey))?.status).toBe("scheduled");

    const issued = await admin(`/api/admin/submissions/${link.submissionId}/edit-link`);
    expect(issued.status).toBe(200);
    const fresh = new URL(issued.body.editUrl);
    expect((await ctx.request(`${fresh.pathname}${fresh.search}`)).status).toBe(200);
    expect((await ctx.request(`${link.path}?token=${link.token}`)).status).toBe(410);
    const [mail] = await query<{ language: string; params: Record<string, unknown> }>(sql`select language, params from outbox_messages where kind = 'edit_link_issued'`);
    expect(JSON.stringify(mail.params)).not.toContain(fresh.searchParams.get("token")!);
    expect(withPrivateLinks(ctx.deps.config, "edit_link_issued", mail.language, mail.params, "send").editUrl).toBe(issued.body.editUrl);
    const actions = (await query<{ action: string }>(sql`select action from admin_activity where action like 'editlink.%' order by at`)).map((r) => r.action);
    expect(actions).toEqual(["editlink.revoke", "editlink.issue"]);
    // A pending submission has no link to issue.
    expect((await admin(`/api/admin/submissions/00000000-0000-4000-8000-000000000000/edit-link`)).status).toBe(404);
  });
});

describe("the console's actions", () => {
  const HX = { ...ADMIN_KEY_HEADER, "hx-request": "true", "content-type": "application/x-www-form-urlencoded" };
  test("the accepted tab shows the link with Revoke and Issue; the changes card refuses with a reason and accepts", async () => {
    const link = await acceptedEvent("Canal Console");
    const tab = await (await ctx.request("/admin/content/submissions?status=accepted", { headers: HX })).text();
    expect(tab).toContain('data-edit-link="active"');
    expect(tab).toContain("Revoke edit link");
    const revoked = await ctx.request(`/admin/content/submissions/${link.submissionId}/edit-link/revoke`, { method: "POST", headers: HX });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toContain("Edit link revoked");
    expect((await ctx.request(`${link.path}?token=${link.token}`)).status).toBe(410);
    const issued = await ctx.request(`/admin/content/submissions/${link.submissionId}/edit-link/issue`, { method: "POST", headers: HX });
    const text = await issued.text();
    const fresh = text.match(/http:\/\/finder\.test(\/edit-event\/[0-9a-f-]{36}\?token=[A-Za-z0-9_-]{43})/)![1];
    expect((await ctx.request(fresh)).status).toBe(200);
    const freshLink = { path: fresh.split("?")[0], token: new URL(`http://x${fresh}`).searchParams.get("token")! };

    expect((await propose(freshLink, { location: "Quai de la Loire" })).status).toBe(200);
    const [{ id }] = await query<{ id: string }>(sql`select id from host_change_requests where status = 'pending'`);
    const empty = await ctx.request(`/admin/content/changes/${id}/refuse`, { method: "POST", headers: HX, body: "reason=" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Give the host a reason");
    const refused = await ctx.request(`/admin/content/changes/${id}/refuse`, { method: "POST", headers: HX, body: "reason=Not+confirmed" });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("refused; the host is emailed the reason");

    expect((await propose(freshLink, { location: "Quai de la Loire" })).status).toBe(200);
    const [{ id: second }] = await query<{ id: string }>(sql`select id from host_change_requests where status = 'pending'`);
    const accepted = await ctx.request(`/admin/content/changes/${second}/accept`, { method: "POST", headers: HX });
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain("No changes waiting.");
    expect(await apiEvent(link.eventKey)).toMatchObject({ location: "Quai de la Loire" });
  });
});
