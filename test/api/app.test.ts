import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();

describe("app skeleton", () => {
  test("GET /api/health answers ok without detail", async () => {
    const res = await ctx.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toContain("no-store");
  });

  test("GET / does not fail", async () => {
    const res = await ctx.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  test("unknown API route → JSON 404; unknown page → HTML 404", async () => {
    const api = await ctx.request("/api/does-not-exist");
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ success: false, error: "Not found" });
    const page = await ctx.request("/no/such/page?<script>");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
    const body = await page.text();
    expect(body).toContain("Page not found");
    expect(body).not.toContain("<script>");
  });

  test("a body over 1 MiB is refused with 413", async () => {
    const res = await ctx.request("/api/health", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: "Request body too large" });
  });

  test("an unhandled error leaks neither message nor stack, and is logged", async () => {
    const app = new Elysia().use(ctx.app).get("/api/boom", () => {
      throw new Error("password authentication failed for postgres://admin:hunter2@db:5432/prod");
    });
    const res = await app.handle(new Request("http://finder.test/api/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: "Internal server error" });
    expect(text).not.toContain("hunter2");
    const page = await new Elysia()
      .use(ctx.app)
      .get("/boom", () => {
        throw new Error("select * from users -- secret");
      })
      .handle(new Request("http://finder.test/boom"));
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain("Something went wrong");
    expect(html).not.toContain("select * from users");
    expect(ctx.logs.some((l) => l.level === "error" && l.line.includes('"scope":"http"'))).toBe(true);
  });

  test("static assets are served from memory with an ETag; traversal finds nothing", async () => {
    const res = await ctx.request("/static/vendor/htmx.min.js");
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await ctx.request("/static/vendor/htmx.min.js", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect((await ctx.request("/static/../package.json")).status).toBe(404);
    expect((await ctx.request("/static/%2e%2e/package.json")).status).toBe(404);
  });
});
