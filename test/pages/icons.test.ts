// Icons are drawn by static/app.css: each name the views can use has its `.i-<name>` rule there (an
// SVG mask), the stylesheet draws no icon the views cannot name, and an icon is one element,
// hidden from assistive technology unless it carries a name.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Icon, ICON_NAMES } from "../../src/pages/components/icons.tsx";

const css = readFileSync(new URL("../../static/app.css", import.meta.url), "utf8");

describe("icons", () => {
  test("every icon has its mask rule in app.css, and app.css has no rule for an unknown icon", () => {
    const rules = [...css.matchAll(/^\.i-([a-z]+) \{ --icon: url\("data:image\/svg\+xml,%3Csvg [^"]+%3C\/svg%3E"\); \}$/gm)].map((m) => m[1]);
    expect([...rules].sort()).toEqual([...ICON_NAMES].sort());
    expect(new Set(rules).size).toBe(rules.length);
  });

  test("an icon is one empty element: decorative by default, an image with an escaped name when labelled", () => {
    expect(Icon({ name: "moon" })).toBe('<span class="icon i-moon" aria-hidden="true"></span>');
    expect(Icon({ name: "sun", class: "icon-day", label: 'Day "<b>"' })).toBe('<span class="icon i-sun icon-day" role="img" aria-label="Day &quot;&lt;b&gt;&quot;"></span>');
  });
});
