// Every stylesheet in static/ parses as CSS with no block left open: an unbalanced brace (easy to
// leave behind when two changes to one stylesheet are merged) silently nests the rules after it.

import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postcss from "postcss";

const STATIC = join(import.meta.dir, "../../static");
const sheets = readdirSync(STATIC).filter((name) => name.endsWith(".css"));

test("there are stylesheets to check", () => {
  expect(sheets.length).toBeGreaterThan(0);
});

test.each(sheets)("%s parses, and every rule sits at the top level or inside an at-rule", (name) => {
  const root = postcss.parse(readFileSync(join(STATIC, name), "utf8"), { from: name });
  root.walkRules((rule) => {
    expect(rule.parent?.type === "root" || rule.parent?.type === "atrule" ? "ok" : `${rule.selector} nested in ${(rule.parent as { selector?: string }).selector}`).toBe("ok");
  });
});
