import { beforeEach, expect, test } from "bun:test";
import { TEST_ADMIN_KEY, useTestApp } from "../../helpers/app.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../../helpers/payment.ts";

const ctx = useTestApp({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = { "x-admin-key": TEST_ADMIN_KEY };
const page = (query = "") => ctx.request(`/admin/placements${query}`, { headers: KEY });
const form = (path: string, fields: Record<string, string>) =>
  ctx.request(path, { method: "POST", headers: { ...KEY, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

test("401 with the login card without a credential", async () => {
  const res = await ctx.request("/admin/placements");
  expect(res.status).toBe(401);
  expect(await res.text()).toContain("Admin Access");
});

test("orders queue: a paid order shows with its fields and counts in the Action Center badge and the tab; fulfil from the form", async () => {
  const body = JSON.stringify(checkoutCompleted());
  await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "payment-signature": await signatureHeader(body, Math.floor(ctx.clock.now().getTime() / 1000)) }, body });
  const res = await page();
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  const html = await res.text();
  expect(html).toContain("Paid Orders Queue");
  expect(html).toContain("Canal Sunset Session");
  expect(html).toContain("80.00 EUR");
  expect(html).toContain("Action Center 1");
  expect(html).toMatch(/Placements<\/span><span class="tab-count">1<\/span>/);
  const id = /data-order-id="([0-9a-f-]{36})"/.exec(html)![1]!;

  const bad = await form(`/admin/placements/orders/${id}/fulfil`, { eventKey: "evt_missing", tier: "spotlight", startAt: "", durationHours: "48" });
  expect(bad.status).toBe(303);
  expect(new URL(bad.headers.get("location")!, "http://x").searchParams.get("notice")).toBe("Unknown event");

  const done = await form(`/admin/placements/orders/${id}/fulfil`, { eventKey: "evt_fixture000002", tier: "spotlight", startAt: "", durationHours: "48" });
  expect(done.status).toBe(303);
  // The statistics link is shown once, on the page the activation comes back to; the list never shows it again.
  const back = new URL(done.headers.get("location")!, "http://x");
  expect(back.searchParams.get("notice")).toBe("Order activated as spotlight for “Belleville Rooftop House” (evt_fixture000002)");
  const statsLink = back.searchParams.get("statsLink")!;
  expect(statsLink).toMatch(new RegExp(`^http://finder\\.test/partner-stats/${id}\\?token=[0-9a-f]{32}$`));
  const once = await (await page(back.search)).text();
  expect(once).toContain("Statistics link, shown this once");
  expect(once).toContain(`href="${Bun.escapeHTML(statsLink)}"`);
  const after = await (await page("?tab=activated")).text();
  expect(after).toContain("Statistics link issued");
  expect(after).not.toContain("/partner-stats/" + id + "?token=");
  // Only this site's statistics links are shown from the address.
  const forged = await (await page(`?statsLink=${encodeURIComponent("https://evil.example/partner-stats/" + id + "?token=" + "0".repeat(32))}`)).text();
  expect(forged).not.toContain("evil.example");
  expect(after).toContain("Action Center 0");
});

test("scheduler: create (Feature now), the timeline by slot with queue positions, a DST-gap start refused with the notice", async () => {
  for (const key of ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"]) {
    const res = await form("/admin/placements/spotlight", { eventKey: key, startAt: "2026-06-19T20:00", durationHours: "24", now: "1" });
    expect(res.status).toBe(303);
  }
  const html = await (await page("?mode=spotlight")).text();
  expect(html).toContain("3/3");
  expect(html).toContain("#1 in queue");
  expect(html).toContain("18/06/2026, 12:00 → 19/06/2026, 12:00");
  const bad = await form("/admin/placements/spotlight", { eventKey: "evt_fixture000001", startAt: "2027-03-28T02:30", durationHours: "24" });
  expect(new URL(bad.headers.get("location")!, "http://x").searchParams.get("notice")).toBe("Invalid schedule time. Use YYYY-MM-DDTHH:mm (Paris time) or full ISO");
  const promoted = await (await page("?mode=promoted")).text();
  expect(promoted).toContain("All promoted entries");
});

/** The timeline as HTMLRewriter (Bun's HTML parser) reads it: lanes, each with its bars' entry ids, positions and text. */
async function timelineOf(html: string) {
  const lanes: { label: string; bars: { id: string; style: string; text: string }[] }[] = [];
  const days: string[] = [];
  let now = null as string | null;
  let bar: { id: string; style: string; text: string } | undefined;
  await new HTMLRewriter()
    .on("ol.tl-days li", { text: (t) => void (days[days.length - 1] += t.text), element: () => void days.push("") })
    .on("section.tl-lane", { element: (el) => void lanes.push({ label: el.getAttribute("aria-label")!, bars: [] }) })
    .on("li.tl-bar", {
      element: (el) => {
        bar = { id: el.getAttribute("data-entry-id")!, style: el.getAttribute("style")!, text: "" };
        lanes.at(-1)!.bars.push(bar);
      },
      text: (t) => void (bar!.text += t.text),
    })
    .on("div.tl-now", { element: (el) => void (now = el.getAttribute("style")) })
    .transform(new Response(html))
    .text();
  return { lanes, days, now, bars: lanes.flatMap((l) => l.bars.map((b) => ({ ...b, lane: l.label, text: b.text.replace(/\s+/g, " ").trim() }))) };
}

test("the timeline: one lane per slot over the Paris days, bars placed by their windows, the queue position, a now line; readable without JS", async () => {
  // Now is 18/06 12:00 Paris. 48 h, 24 h and 12 h take the three slots; 10 h queues in slot 3 from 19/06 00:00.
  for (const [key, hours] of [["evt_fixture000001", "48"], ["evt_fixture000002", "24"], ["evt_fixture000003", "12"], ["evt_fixture000004", "10"]] as const) {
    await form("/admin/placements/spotlight", { eventKey: key, startAt: "", durationHours: hours, now: "1" });
    ctx.clock.advance(1);
  }
  const html = await (await page("?mode=spotlight")).text();
  expect(html).not.toContain("<script>");
  const t = await timelineOf(html);
  expect(t.lanes.map((l) => l.label)).toEqual(["Slot 1", "Slot 2", "Slot 3"]);
  // 18, 19 and 20 June: the longest window ends 20/06 12:00 Paris.
  expect(t.days).toEqual(["Thu 18/06", "Fri 19/06", "Sat 20/06"]);
  expect(t.now).toBe("left:16.67%");
  const byName = (name: string) => t.bars.find((b) => b.text.startsWith(name))!;
  expect(byName("Canal Amapiano Sunset")).toMatchObject({ lane: "Slot 1", style: "left:16.67%;width:66.67%" });
  expect(byName("Canal Amapiano Sunset").text).toContain("active 18/06/2026, 12:00 → 20/06/2026, 12:00");
  expect(byName("Belleville Rooftop House")).toMatchObject({ lane: "Slot 2", style: "left:16.67%;width:33.33%" });
  const slot3 = t.bars.filter((b) => b.lane === "Slot 3");
  expect(slot3.map((b) => [b.text.split(" active")[0], b.style])).toEqual([
    ["Marais Jazz-Funk Brunch", "left:16.67%;width:16.67%"],
    [expect.any(String), "left:33.33%;width:13.89%"],
  ]);
  expect(slot3[1]!.text).toContain("#1 in queue 19/06/2026, 00:00 → 19/06/2026, 10:00");
});
