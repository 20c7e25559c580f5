import { describe, expect, test } from "bun:test";
import { TEST_AUTH_SECRET, useTestApp } from "../helpers/app.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { genrePreferences } from "../../src/lib/db/schema/index.ts";

const ctx = useTestApp();

async function cookieFor(email: string) {
  const { token } = await signUserToken(TEST_AUTH_SECRET, email, ctx.deps.now());
  return { cookie: `finder_user_session=${token}` };
}

describe("quick genre chips of a signed-in visitor", () => {
  test("the homepage's genre filter carries the empty slot; anonymous visitors get an empty fragment", async () => {
    expect(await (await ctx.request("/")).text()).toContain('id="genre-quick-chips"');
    const res = await ctx.request("/account/genres");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await res.text()).toBe('<div id="genre-quick-chips" class="quick-chips" aria-live="polite"></div>');
    const forged = await ctx.request("/account/genres", { headers: { cookie: "finder_user_session=not-a-token" } });
    expect(await forged.text()).not.toContain("data-quick-genre");
  });

  test("a signed-in visitor sees their top 3 genres by score, known keys only", async () => {
    const t = ctx.deps.now();
    await ctx.deps.db.insert(genrePreferences).values([
      { email: "fan@example.com", genre: "house", score: 9, lastSeenAt: t },
      { email: "fan@example.com", genre: "r&b", score: 7, lastSeenAt: t },
      { email: "fan@example.com", genre: "<script>", score: 99, lastSeenAt: t },
      { email: "fan@example.com", genre: "disco", score: 7, lastSeenAt: new Date(t.getTime() - 1000) },
      { email: "fan@example.com", genre: "funk", score: 1, lastSeenAt: t },
      { email: "other@example.com", genre: "zouk", score: 50, lastSeenAt: t },
    ]);
    const html = await (await ctx.request("/account/genres", { headers: await cookieFor("fan@example.com") })).text();
    const chips = [...html.matchAll(/data-quick-genre="([^"]+)"/g)].map((m) => m[1]);
    expect(chips).toEqual(["house", "r&b", "disco"]);
    expect(html).toContain("Your genres");
    expect(html).toContain('href="/?g=r%26b"');
    expect(html).not.toContain("<script>");
  });
});
