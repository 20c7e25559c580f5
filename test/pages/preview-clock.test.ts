// The preview clock (docs/public-pages.md, "Preview clock"): `?at=` outside production sets a
// session cookie and redirects; pages then render at that Paris minute with a badge, per request,
// never stored in the render cache nor sent with public cache headers. Production ignores both.

import { describe, expect, test } from "bun:test";
import { createClock, HTMX_HEADERS, useTestApp, withTestApp } from "../helpers/app.ts";
import { parsePreviewClock, previewFromCookie, previewRequestOf, PREVIEW_COOKIE } from "../../src/lib/preview-clock.ts";

const NOVEMBER = "2026-11-27T12:00:00Z";
const COOKIE = { cookie: `${PREVIEW_COOKIE}=2026-06-21T21%3A30` };

describe("reading a preview minute", () => {
  test("a Paris wall time YYYY-MM-DDTHH:MM gives its instant (summer and winter offsets)", () => {
    expect(parsePreviewClock("2026-06-21T21:30")?.at.toISOString()).toBe("2026-06-21T19:30:00.000Z");
    expect(parsePreviewClock("2026-11-27T09:05")?.at.toISOString()).toBe("2026-11-27T08:05:00.000Z");
    expect(parsePreviewClock("2026-06-21T21:30")).toMatchObject({ date: "2026-06-21", time: "21:30" });
  });

  test("anything else is refused: other forms, impossible dates, the spring-forward gap, far years", () => {
    for (const bad of ["2026-06-21", "2026-06-21 21:30", "2026-06-21T21:30:00", "2026-06-21T21:30Z", "2026-02-30T12:00", "2026-06-21T24:00", "2026-03-29T02:30", "1999-06-21T21:30", "2100-06-21T21:30", "tomorrow", ""]) {
      expect(parsePreviewClock(bad)).toBeNull();
    }
  });

  test("?at=: a minute, off (or empty), or invalid; a cookie with a bad value is ignored", () => {
    expect(previewRequestOf(new URLSearchParams("at=2026-06-21T21:30"))?.kind).toBe("set");
    expect(previewRequestOf(new URLSearchParams("at=off"))?.kind).toBe("off");
    expect(previewRequestOf(new URLSearchParams("at="))?.kind).toBe("off");
    expect(previewRequestOf(new URLSearchParams("at=21h30"))).toEqual({ kind: "invalid", value: "21h30" });
    expect(previewRequestOf(new URLSearchParams("q=jazz"))).toBeNull();
    expect(previewFromCookie(`lang=fr; ${PREVIEW_COOKIE}=2026-06-21T21%3A30`)?.time).toBe("21:30");
    expect(previewFromCookie(`${PREVIEW_COOKIE}=<script>`)).toBeNull();
  });
});

describe("outside production", () => {
  const ctx = useTestApp({ clock: createClock(NOVEMBER) });

  test("?at= keeps the minute in a session cookie and sends the visitor to the same address without it", async () => {
    const res = await ctx.request("/?at=2026-06-21T21:30&q=jazz");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?q=jazz");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`${PREVIEW_COOKIE}=2026-06-21T21%3A30`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).not.toContain("Max-Age");
    // An early answer still carries the security headers.
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    const other = await ctx.request("/submit-event?at=2026-06-21T21:30");
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).toBe("/submit-event");
  });

  test("?at=off (or empty) leaves the preview", async () => {
    for (const path of ["/?at=off", "/my-night?at="]) {
      const res = await ctx.request(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("set-cookie")).toContain("Max-Age=0");
    }
  });

  test("an invalid value answers 400 naming the expected form, in the visitor's language", async () => {
    const en = await ctx.request("/?at=21h30");
    expect(en.status).toBe(400);
    expect(en.headers.get("set-cookie")).toBeNull();
    expect(en.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await en.text();
    expect(text).toContain("Invalid preview time");
    expect(text).toContain("?at=YYYY-MM-DDTHH:MM");
    const fr = await (await ctx.request("/?at=2026-02-30T12:00&lang=fr")).text();
    expect(fr).toContain("aperçu invalide « 2026-02-30T12:00 »");
    expect(fr).toContain("?at=AAAA-MM-JJTHH:MM");
  });

  test("the API and the console never read it", async () => {
    expect((await ctx.request("/api/events?at=nonsense")).status).toBe(200);
  });

  test("with the cookie, the homepage renders at the minute with the badge, per request and never cached", async () => {
    const before = ctx.deps.renderCache.size();
    const res = await ctx.request("/", { headers: COOKIE });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-cache")).toBeNull();
    const html = await res.text();
    expect(html).toContain("Preview: 21 June 21:30");
    expect(html).toContain(`data-preview-at="${Date.parse("2026-06-21T19:30:00Z")}"`);
    expect(html).toContain('href="?at=off"');
    // At 21:30 on 21 June the festival is on: the time chips are back (November would offer days).
    expect(html).toContain('data-quick="now"');
    const fr = await (await ctx.request("/fr/", { headers: COOKIE })).text();
    expect(fr).toContain("Aperçu : 21 juin 21:30");
    // htmx fragments and the map's JSON too.
    const fragment = await ctx.request("/?when=now", { headers: { ...COOKIE, ...HTMX_HEADERS } });
    expect(fragment.headers.get("cache-control")).toBe("private, no-store");
    expect(await fragment.text()).toContain("Canal Amapiano Sunset");
    expect(ctx.deps.renderCache.size()).toBe(before);
    // The shared cache still holds and serves the real clock's page, without any badge.
    const plain = await ctx.request("/");
    expect(plain.headers.get("cache-control")).toContain("public");
    const plainHtml = await plain.text();
    expect(plainHtml).not.toContain("preview-badge");
    expect(plainHtml).not.toContain('data-quick="now"');
  });

  test("the served app's fast path for cached / steps aside for a preview cookie", async () => {
    const base = ctx.listen();
    await fetch(`${base}/`); // cached now
    const hit = await fetch(`${base}/`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    const preview = await fetch(`${base}/`, { headers: COOKIE });
    expect(preview.headers.get("x-cache")).toBeNull();
    expect(preview.headers.get("cache-control")).toBe("private, no-store");
    expect(await preview.text()).toContain("Preview: 21 June 21:30");
  });

  test("My night renders at the minute with the badge, uncached", async () => {
    const res = await ctx.request("/my-night?e=evt_fixture000001", { headers: COOKIE });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Preview: 21 June 21:30");
    expect(html).toContain("On now · until 23:00");
  });

  test("a cookie whose value is not a minute is ignored: the real clock's cached page", async () => {
    const res = await ctx.request("/", { headers: { cookie: `${PREVIEW_COOKIE}=yesterday` } });
    expect(res.headers.get("cache-control")).toContain("public");
    expect(await res.text()).not.toContain("preview-badge");
  });
});

describe("in production", () => {
  test("?at= is an unknown parameter and the cookie is never read: cached pages, public headers, no badge", async () => {
    await withTestApp({ clock: createClock(NOVEMBER), env: { NODE_ENV: "production", DATA_MODE: "test", DATABASE_URL: "postgres://unused@127.0.0.1:9/unused" }, keepData: true }, async (production) => {
      const asked = await production.request("/?at=2026-06-21T21:30");
      expect(asked.status).toBe(302);
      expect(asked.headers.get("location")).toBe("/");
      expect(asked.headers.get("set-cookie")).toBeNull();
      expect((await production.request("/?at=nonsense")).status).toBe(302);
      const before = await production.request("/");
      expect(before.headers.get("x-cache")).toBe("MISS");
      const res = await production.request("/", { headers: COOKIE });
      expect(res.headers.get("x-cache")).toBe("HIT");
      expect(res.headers.get("cache-control")).toContain("public");
      const html = await res.text();
      expect(html).not.toContain("preview-badge");
      expect(html).not.toContain('data-quick="now"');
      const night = await production.request("/my-night?e=evt_fixture000001", { headers: COOKIE });
      expect(night.headers.get("cache-control")).not.toContain("no-store");
      expect(await night.text()).not.toContain("preview-badge");
    });
  });
});
