// The quick chips tracked as filters (docs/filters-and-search.md, "Quick chips"; docs/insights.md):
// each chip carries the group and value its tap is tracked with, the tracking endpoint records
// them, and the insights' Top Filters name the chip instead of "No filters applied".

import { describe, expect, test } from "bun:test";
import { postJson, useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { QUICK_CHIP_TRACKING } from "../../src/lib/events/filter-labels.ts";

const ctx = useTestApp();

/** The quick chips of a homepage: their text and tracking attributes. */
async function quickChips(language: "fr" | "en"): Promise<{ text: string; group: string; value: string }[]> {
  const html = await (await ctx.request(language === "fr" ? "/fr/" : "/")).text();
  const nav = html.slice(html.indexOf('id="quick-chips"'), html.indexOf("</nav>", html.indexOf('id="quick-chips"')));
  return [...nav.matchAll(/<a [^>]*data-quick-group="([^"]+)" data-quick-value="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({
    group: m[1]!,
    value: m[2]!,
    text: m[3]!.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'").trim(),
  }));
}

describe("quick chips as tracked filters", () => {
  test("every chip carries its tracked group and value, in French and English", async () => {
    expect(await quickChips("fr")).toEqual([
      { text: "En ce moment", group: "date_range", value: "now" },
      { text: "Ce soir", group: "date_range", value: "tonight" },
      { text: "Aujourd'hui", group: "date_range", value: "today" },
      { text: "Gratuit", group: "price_range", value: "free" },
      { text: "Près de moi", group: "arrondissement", value: "near_me" },
    ]);
    expect((await quickChips("en")).map((chip) => chip.text)).toEqual(["Now", "Tonight", "Today", "Free", "Near me"]);
  });

  test("five taps on 'Ce soir' (on, off, on, off, on): the insights name the chip with its three taps on", async () => {
    const tonight = QUICK_CHIP_TRACKING.tonight;
    for (let tap = 1; tap <= 5; tap++) {
      const res = await postJson(ctx, "/api/track/discovery", { actionType: tap % 2 ? "filter_apply" : "filter_clear", sessionId: "s-quick", filterGroup: tonight.group, filterValue: tonight.value, path: "/" });
      expect(res.status).toBe(202);
    }
    await postJson(ctx, "/api/track/discovery", { actionType: "filter_apply", sessionId: "s-quick", filterGroup: "price_range", filterValue: "free", path: "/" });
    await postJson(ctx, "/api/track/discovery", { actionType: "filter_apply", sessionId: "s-quick", filterGroup: "price_range", filterValue: "0:20", path: "/" });
    await ctx.deps.tracking.flush();
    ctx.clock.advance(1000);
    const html = await (await ctx.request("/admin/insights/discovery", { headers: ADMIN_KEY_HEADER })).text();
    expect(html).not.toContain("No filters applied");
    expect(html).toContain('<li><span>Quick chip: Tonight</span> <span class="badge">3</span></li>');
    expect(html).toContain('<li><span>Quick chip: Free</span> <span class="badge">1</span></li>');
    // A panel filter keeps its group and value.
    expect(html).toContain('<span class="muted">price_range:</span> <span>0:20</span> <span class="badge">1</span>');
    const json = (await (await ctx.request("/api/admin/insights", { headers: ADMIN_KEY_HEADER })).json()) as any;
    expect(json.discovery.topFilters).toContainEqual({ filterGroup: "date_range", filterValue: "tonight", count: 3 });
  });
});
