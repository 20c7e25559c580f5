// Bad percent-encodings (and an encoded NUL) in the path or the query of every route family: a path
// that cannot be read is a JSON 400 on the API and the 404 page elsewhere; a bad escape in a query
// is read as literal text. Never a 5xx, never an "Unhandled error" in the log. Through app.handle
// and through the listening server (whose own route table answers the homepage and the events list).

import { describe, expect, test } from "bun:test";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { isUnreadablePath } from "../../src/lib/http/url-encoding.ts";

const ctx = useTestApp();

const BAD = ["%", "%C3%28", "%E0%A4%A", "%00", "%C0%AF", "%ZZ", "a%2", "%F0%9F%98", "%ED%A0%80"];

interface Route {
  method: string;
  path: string;
}

function routes(): Route[] {
  const all = (ctx.app as unknown as { routes: Route[] }).routes;
  const seen = new Set<string>();
  return all.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (r.method === "ALL" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function withParams(path: string, value: string): string {
  return path.includes(":") || path.includes("*") ? path.replace(/:[^/]+|\*/g, value) : `${path.replace(/\/$/, "")}/${value}`;
}

async function send(base: string | undefined, method: string, path: string, admin: boolean): Promise<Response> {
  const init: RequestInit = { method, headers: { ...(admin ? { "x-admin-key": TEST_ADMIN_KEY } : {}), ...(method === "GET" || method === "HEAD" ? {} : { "content-type": "application/json" }) } };
  if (method !== "GET" && method !== "HEAD") init.body = "{}";
  return base === undefined ? ctx.request(path, init) : fetch(`${base}${path}`, init);
}

/** Whether an answer is the one expected: the path refusal, or for a query anything but a 5xx. */
function expected(path: string, part: "path" | "query", status: number): boolean {
  if (part === "query") return status < 500;
  return status === (path.startsWith("/api/") ? 400 : 404);
}

describe("unreadable addresses", () => {
  test("the rule: which paths cannot be read", () => {
    for (const path of ["/event/%C3%28/x", "/%C0%AF", "/a%00b", "/%", "/x%ED%A0%80"]) expect(isUnreadablePath(`http://h${path}`)).toBe(true);
    // Valid encodings (UTF-8, an encoded slash, a % written as %25) are readable; the query and fragment are not the path.
    for (const path of ["/event/f%C3%AAte/x?q=%E0%A4%A", "/a%2Fb#%ZZ", "/%25", "/plain?q=%"]) expect(isUnreadablePath(`http://h${path}`)).toBe(false);
  });

  test("every route, with each bad encoding in its path (400 or 404) and in its query (never 5xx)", async () => {
    const wrong: string[] = [];
    for (const route of routes()) {
      for (const bad of BAD) {
        for (const [part, path] of [["path", withParams(route.path, bad)], ["query", `${withParams(route.path, "x")}?q=${bad}&${bad}=1`]] as const) {
          // With the key too, so the admin routes' own reading is reached on the old code.
          for (const admin of [false, true]) {
            const res = await send(undefined, route.method, path, admin);
            await res.arrayBuffer();
            if (!expected(path, part, res.status)) wrong.push(`${res.status} ${route.method} ${path}${admin ? " (admin)" : ""}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(ctx.logs.filter((l) => JSON.stringify(l).includes("Unhandled error"))).toEqual([]);
  });

  test("a bad share link is the 404 page, a bad API path the JSON 400; a good encoding still reads", async () => {
    const page = await ctx.request("/event/%C3%28/x");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
    const api = await ctx.request("/api/events/%C3%28");
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ success: false, error: "Malformed percent-encoding in the path" });
    expect((await ctx.request("/api/events?q=%E0%A4%A")).status).toBe(200);
    expect((await ctx.request("/event/f%C3%AAte/x")).status).toBeLessThan(400);
    expect((await ctx.request("/api/events?q=f%C3%AAte")).status).toBe(200);
  });

  test("through the listening server: a bad query on the homepage and events list of its own route table reads as text", async () => {
    const base = ctx.listen();
    for (const bad of BAD) {
      for (const path of ["/", "/fr/", "/api/events"]) {
        const res = await send(base, "GET", `${path}?q=${bad}`, false);
        await res.arrayBuffer();
        expect(`${path}?q=${bad} ${res.status}`).toBe(`${path}?q=${bad} 200`);
      }
      const share = await send(base, "GET", `/event/${bad}/x`, false);
      await share.arrayBuffer();
      expect(share.status).toBe(404);
    }
    expect((await fetch(`${base}/api/events?q=caf%C3%A9`)).status).toBe(200);
  });
});
