// The public API's OpenAPI document: generated from the routes, valid, listing every public route
// of the app (each with a summary, and `lang` where the answer has words in a language) and none
// of the admin ones; and the /api/docs page built from it.

import { beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();
let doc: any;
beforeAll(async () => {
  const res = await ctx.request("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = await res.json();
});

const PUBLIC_ROUTES = [
  "GET /api/health",
  "GET /api/events",
  "GET /api/events/{eventKey}",
  "GET /api/events/{eventKey}/calendar.ics",
  "GET /calendar.ics",
  "GET /api/og",
  "POST /api/track",
  "POST /api/track/discovery",
  "POST /api/user/preference",
  "POST /api/event-submissions",
  "POST /api/auth/verify",
  "GET /api/auth/session",
  "DELETE /api/auth/session",
  "GET /api/partner-stats/{activationId}",
  "POST /api/webhooks/payment",
];

/** The answers with words in the visitor's language: calendar files and preview images. */
const LANGUAGE_ROUTES = ["GET /api/events/{eventKey}/calendar.ics", "GET /calendar.ics", "GET /api/og"];

/** Is a registered route part of the public API (not admin, cron, deploy, the docs themselves or a page)? */
function isPublicRoute(path: string): boolean {
  if (!path.startsWith("/api/") && path !== "/calendar.ics") return false;
  return !/^\/api\/(admin|cron|revalidate)(\/|$)/.test(path) && !/^\/api\/(docs|openapi\.json)$/.test(path);
}

const operations = () => Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));

describe("GET /api/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toStartWith("3.1");
    expect(doc.servers).toEqual([{ url: "http://finder.test" }]);
  });

  test("lists every public route and no admin, cron, deploy or page route", () => {
    const listed = operations();
    for (const route of PUBLIC_ROUTES) expect(listed).toContain(route);
    for (const route of listed) {
      expect(route).not.toMatch(/ \/api\/(admin|cron|revalidate)/);
      expect(route).toMatch(/ \/(api\/|calendar\.ics)/);
    }
  });

  test("every route the app serves under /api (and /calendar.ics) that is public is in the document", () => {
    const served = ctx.app.routes
      .filter((route) => route.method !== "HEAD" && route.method !== "OPTIONS" && isPublicRoute(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(served.length).toBeGreaterThanOrEqual(PUBLIC_ROUTES.length);
    expect([...new Set(operations())].sort()).toEqual([...new Set(served)].sort());
  });

  test("every operation has a tag, a summary and a description; each parameter says what it is", () => {
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect({ where, summary: typeof operation.summary === "string" && operation.summary.length > 0 }).toEqual({ where, summary: true });
        expect({ where, description: typeof operation.description === "string" && operation.description.length > 0 }).toEqual({ where, description: true });
        expect({ where, tags: operation.tags?.length ?? 0 }).toEqual({ where, tags: 1 });
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === "path") continue;
          const described = parameter.description ?? parameter.schema?.description;
          expect({ where, parameter: parameter.name, described: typeof described === "string" && described.length > 0 }).toEqual({ where, parameter: parameter.name, described: true });
        }
      }
    }
  });

  test("the calendar files and the preview image take lang, and it changes their words", async () => {
    for (const route of LANGUAGE_ROUTES) {
      const [method, path] = route.split(" ");
      const names = (doc.paths[path][method.toLowerCase()].parameters ?? []).map((p: { name: string }) => p.name);
      expect({ route, lang: names.includes("lang") }).toEqual({ route, lang: true });
    }
    const ics = async (lang: string) => (await ctx.request(`/api/events/evt_fixture000001/calendar.ics?lang=${lang}`)).text();
    expect(await ics("fr")).toContain("Prix : ");
    expect(await ics("en")).toContain("Price: ");
  });

  test("the events list and the feed describe the filter parameters, which the routes really accept", async () => {
    for (const path of ["/api/events", "/calendar.ics"]) {
      const names = doc.paths[path].get.parameters.map((p: { name: string }) => p.name);
      expect(names).toEqual(expect.arrayContaining(["q", "g", "arr", "df", "dt"]));
    }
    const documented = await (await ctx.request("/api/events?g=house")).json();
    const all = await (await ctx.request("/api/events")).json();
    expect(documented.count).toBeGreaterThan(0);
    expect(documented.count).toBeLessThan(all.count);
  });
});

describe("GET /api/docs", () => {
  test("a readable page of every documented operation, escaped, linking the JSON", async () => {
    const res = await ctx.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('href="/api/openapi.json"');
    for (const route of operations()) expect(html).toContain(`<code>${route}</code>`);
    expect(html).toContain("Events matching the homepage&#x27;s filters");
    expect((await ctx.request("/api/docs")).headers.get("x-cache")).toBe("HIT");
  });
});
