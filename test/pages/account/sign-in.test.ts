// The sign-in form fragment and its HTML endpoints, each with and without htmx.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, HTMX_HEADERS as HX } from "../../helpers/app.ts";
import { claimsOf, setCookie } from "../../helpers/auth.ts";
import { SignInForm, SIGN_IN_ID } from "../../../src/pages/components/sign-in.view.tsx";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate users, user_verifications, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return ctx.request(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.30", ...headers }, body: new URLSearchParams(fields).toString() });
}

describe("SignInForm (view)", () => {
  test("email, first and last name, a required consent box linking the privacy page; posts with and without htmx", () => {
    const html = SignInForm({}) as string;
    expect(html).toStartWith(`<section id="${SIGN_IN_ID}"`);
    for (const text of ['name="email"', 'type="email"', 'name="firstName"', 'name="lastName"', 'name="consent"', 'type="checkbox"', 'href="/privacy"', 'action="/sign-in"', 'hx-post="/sign-in"', `hx-target="#${SIGN_IN_ID}"`]) expect(html).toContain(text);
  });

  test("typed values and errors are escaped", () => {
    const html = SignInForm({ values: { email: '"><script>x</script>', firstName: "<b>" }, error: { field: "email", message: "<i>bad</i>" } }) as string;
    // Attribute values keep their quotes escaped, so nothing breaks out; text is entity-encoded.
    expect(html).not.toContain('"><script>');
    expect(html).toContain('value="&#34;><script>x</script>"');
    expect(html).not.toContain("<i>bad</i>");
    expect(html).toContain("&lt;i&gt;bad&lt;/i&gt;");
  });

  test("signed in: the email and a sign-out button", () => {
    const html = SignInForm({ signedInEmail: "me@x.com" }) as string;
    expect(html).toContain("Signed in as</span> <strong>me@x.com</strong>");
    expect(html).toContain('hx-post="/sign-out"');
  });
});

describe("POST /sign-in", () => {
  test("with htmx: the user is created, the cookie set, the signed-in fragment returned", async () => {
    const res = await post("/sign-in", { email: " Me@Example.com ", firstName: "Ana", lastName: "", consent: "yes" }, HX);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("vary")).toBe("HX-Request");
    const html = await res.text();
    expect(html).toStartWith(`<section id="${SIGN_IN_ID}"`);
    expect(html).toContain("me@example.com");
    const cookie = setCookie(res, "finder_user_session")!;
    expect(claimsOf(cookie.value)).toMatchObject({ email: "me@example.com", v: 1, aud: "finder:user" });
    const [user] = await ctx.deps.database.query<Record<string, unknown>>(sql`select first_name, last_name, consent, source from users`);
    expect(user).toEqual({ first_name: "Ana", last_name: null, consent: true, source: "finder-form" });
  });

  test("without JavaScript: 303 back to the same-origin page it came from, else home", async () => {
    const back = await post("/sign-in", { email: "a@example.com", consent: "yes" }, { referer: "http://finder.test/?genre=jazz" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/?genre=jazz");
    expect(setCookie(back, "finder_user_session")).toBeDefined();
    const plain = await post("/sign-in", { email: "a@example.com", consent: "yes" });
    expect(plain.headers.get("location")).toBe("/");
    // Never a path the browser reads as another host.
    for (const referer of ["http://finder.test//evil.example/x", "http://finder.test/\\evil.example/x", "http://finder.test/%2F%2Fevil.example"]) {
      const res = await post("/sign-in", { email: "a@example.com", consent: "yes" }, { referer });
      expect(res.status).toBe(303);
      const location = res.headers.get("location")!;
      expect([referer, location.startsWith("//") || location.startsWith("/\\")]).toEqual([referer, false]);
    }
    const out = await ctx.request("/sign-out", { method: "POST", headers: { referer: "http://finder.test//evil.example/" } });
    expect(out.headers.get("location")).toBe("/");
  });

  test("a form posted from another site's page is 403 with the message in the form; no cookie, nothing recorded", async () => {
    for (const headers of [{ origin: "https://evil.example" }, { referer: "https://evil.example/x" }] as Record<string, string>[]) {
      const res = await post("/sign-in", { email: "victim@example.com", consent: "yes" }, headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Sign-in is only possible from the finder site itself.");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(await ctx.deps.database.query(sql`select 1 from users`)).toHaveLength(0);
    expect((await post("/sign-in", { email: "me@example.com", consent: "yes" }, { origin: "http://finder.test", ...HX })).status).toBe(200);
  });

  test("errors re-render the form inline (422) with the typed values; no cookie", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ email: "nope", consent: "yes" }, "Valid email address is required"],
      [{ email: "a@example.com", firstName: "A", consent: "yes" }, "First name must be at least 2 characters"],
      [{ email: "a@example.com" }, "Consent is required"],
    ];
    for (const [fields, message] of cases) {
      for (const headers of [HX, {}]) {
        const res = await post("/sign-in", fields, headers);
        expect(res.status).toBe(422);
        const html = await res.text();
        expect(html).toContain(message);
        expect(html).toContain(`value="${fields.email}"`);
        expect(res.headers.getSetCookie()).toEqual([]);
        if (headers === HX) expect(html).toStartWith(`<section id="${SIGN_IN_ID}"`);
        else expect(html).toStartWith("<!doctype html>");
      }
    }
  });

  test("the verify rate limits apply: 429 with Retry-After and the message in the form", async () => {
    for (let i = 0; i < 6; i++) expect((await post("/sign-in", { email: "same@example.com", consent: "yes" }, HX)).status).toBe(200);
    const res = await post("/sign-in", { email: "same@example.com", consent: "yes" }, HX);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("900");
    expect(await res.text()).toContain("Too many attempts");
  });
});

describe("GET /sign-in and POST /sign-out", () => {
  test("GET shows the form, or the signed-in state with a valid cookie", async () => {
    expect(await (await ctx.request("/sign-in")).text()).toContain('name="email"');
    const token = setCookie(await post("/sign-in", { email: "me@example.com", consent: "yes" }, HX), "finder_user_session")!.value;
    expect(await (await ctx.request("/sign-in", { headers: { cookie: `finder_user_session=${token}` } })).text()).toContain("Signed in as");
    expect(await (await ctx.request("/sign-in", { headers: { cookie: "finder_user_session=%7B%7D" } })).text()).toContain('name="email"');
  });

  test("sign-out clears the cookie: the empty form for htmx, 303 otherwise", async () => {
    const hx = await post("/sign-out", {}, HX);
    expect(hx.status).toBe(200);
    expect(await hx.text()).toContain('name="email"');
    expect(setCookie(hx, "finder_user_session")!.attributes["max-age"]).toBe("0");
    const plain = await post("/sign-out", {});
    expect(plain.status).toBe(303);
    expect(setCookie(plain, "finder_user_session")!.value).toBe("");
  });
});
