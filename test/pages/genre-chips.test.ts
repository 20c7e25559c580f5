import { describe, expect, test } from "bun:test";
import { TEST_AUTH_SECRET, useTestApp } from "../helpers/app.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { sessionGenrePreferences } from "../../src/lib/db/schema/index.ts";
import { sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { hmacKey } from "../../src/lib/auth/jwt-key.ts";

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

  test("a signed-in session sees its top 3 genres by score, known keys only", async () => {
    const t = ctx.deps.now();
    const { token, sid } = await signUserToken(TEST_AUTH_SECRET, "fan@example.com", t);
    const row = (genre: string, score: number, lastSeenAt = t) => ({ sessionId: sid, email: "fan@example.com", genre, score, lastSeenAt });
    await ctx.deps.db.insert(sessionGenrePreferences).values([
      row("house", 9),
      row("r&b", 7),
      row("<script>", 99),
      row("disco", 7, new Date(t.getTime() - 1000)),
      row("funk", 1),
      { sessionId: "another-session", email: "fan@example.com", genre: "zouk", score: 50, lastSeenAt: t },
    ]);
    const html = await (await ctx.request("/account/genres", { headers: { cookie: `finder_user_session=${token}` } })).text();
    const chips = [...html.matchAll(/data-quick-genre="([^"]+)"/g)].map((m) => m[1]);
    expect(chips).toEqual(["house", "r&b", "disco"]);
    expect(html).toContain("Your genres");
    expect(html).toContain('href="/?g=r%26b"');
    expect(html).not.toContain("<script>");
  });

  test("someone who signs in with the same email sees none of the owner's genres; each session sees its own", async () => {
    const signIn = async (ip: string) => {
      const res = await ctx.request("/api/auth/verify", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ email: "owner@example.com", consent: true }) });
      expect(res.status).toBe(200);
      return { cookie: res.headers.getSetCookie().find((c) => c.startsWith("finder_user_session="))!.split(";")[0] };
    };
    const like = async (cookie: { cookie: string }, genre: string, incrementBy: number) =>
      expect((await ctx.request("/api/user/preference", { method: "POST", headers: { "content-type": "application/json", ...cookie }, body: JSON.stringify({ genre, incrementBy }) })).status).toBe(202);
    const chipsOf = async (cookie: { cookie: string }) => [...(await (await ctx.request("/account/genres", { headers: cookie })).text()).matchAll(/data-quick-genre="([^"]+)"/g)].map((m) => m[1]);

    const owner = await signIn("192.0.2.10");
    await like(owner, "jazz", 5);
    await like(owner, "house", 3);
    await ctx.deps.tracking.flush();
    expect(await chipsOf(owner)).toEqual(["jazz", "house"]);

    const stranger = await signIn("203.0.113.99");
    expect(await chipsOf(stranger)).toEqual([]);
    await like(stranger, "metal", 1);
    await ctx.deps.tracking.flush();
    expect(await chipsOf(stranger)).toEqual(["metal"]);
    expect(await chipsOf(owner)).toEqual(["jazz", "house"]);
    // The per-email scores keep counting for the insights.
    const [{ n }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from genre_preferences where email = 'owner@example.com'`);
    expect(n).toBe(3);
  });

  test("a token issued before session ids existed gets no chips", async () => {
    const legacy = await new SignJWT({ email: "fan@example.com", v: 1 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(Math.floor(ctx.deps.now().getTime() / 1000))
      .setExpirationTime(Math.floor(ctx.deps.now().getTime() / 1000) + 3600)
      .setAudience("finder:user")
      .setIssuer("finder")
      .sign(await hmacKey(TEST_AUTH_SECRET));
    const res = await ctx.request("/account/genres", { headers: { cookie: `finder_user_session=${legacy}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("data-quick-genre");
    expect((await (await ctx.request("/api/auth/session", { headers: { cookie: `finder_user_session=${legacy}` } })).json()).isAuthenticated).toBe(true);
  });
});
