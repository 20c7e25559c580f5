import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, HTMX_HEADERS } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { setSubmissionSettings } from "../../src/lib/submissions/settings.ts";
import { SUBMISSION_FORM_ID } from "../../src/pages/submit/submit.view.tsx";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.deps.renderCache.invalidate({ paths: ["/submit-event"] });
  ctx.clock.set("2026-06-18T10:00:00Z");
});

let n = 0;
function form(overrides: Record<string, string> = {}): string {
  n++;
  return new URLSearchParams({
    eventName: `Jazz on the Canal ${n}`,
    date: "2026-06-21",
    startTime: "20:30",
    location: "Canal Saint-Martin",
    hostEmail: `host${n}@example.com`,
    proofLink: `jazz.example/${n}`,
    endTime: "",
    genre: "",
    price: "",
    age: "",
    indoorOutdoor: "",
    arrondissement: "",
    notes: "",
    website: "",
    formStartedAt: "2026-06-18T09:55:00.000Z",
    ...overrides,
  }).toString();
}

function post(body: string, { htmx = false, ip = "203.0.113.40", headers = {} as Record<string, string> } = {}) {
  return ctx.request("/submit-event", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, ...(htmx ? HTMX_HEADERS : {}), ...headers },
    body,
  });
}

describe("GET /submit-event", () => {
  test("static-first: the page texts, cached 300 s", async () => {
    const first = await ctx.request("/submit-event");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-control")).toContain("s-maxage=10,");
    const page = await first.text();
    for (const text of ["Host Submission", "Submit Your Event", 'href="/feature-event"', "Event Name", "Date", "Start Time", "Location", "Host Email", "Proof Link", "Optional details", "End Time", "Genre", "Price", "Age", "Indoor/Outdoor", "1-20 or unknown", "Notes", "Website"]) expect(page).toContain(text);
    expect(page).toContain('type="date"');
    expect(page).toContain('type="time"');
    expect(page).toContain('<option value="Indoor/Outdoor">Indoor/Outdoor</option>');
    expect(page).toContain('name="formStartedAt" value=""');
    expect(page).toMatch(/href="\/static\/forms\.[0-9a-f]{10}\.css"/);
    expect(page).toMatch(/src="\/static\/submit-event\.[0-9a-f]{10}\.js"/);
    expect(page).toContain('name="htmx-config"');
    expect(page).toContain(`id="${SUBMISSION_FORM_ID}"`);
    expect(page).not.toContain("<fieldset disabled");
    const second = await ctx.request("/submit-event");
    expect(second.headers.get("x-cache")).toBe("HIT");
  });

  test("closing submissions invalidates the cached page: closed notice and a disabled form", async () => {
    await ctx.request("/submit-event");
    await setSubmissionSettings(ctx.deps, false, "admin");
    const closed = await ctx.request("/submit-event");
    expect(closed.headers.get("x-cache")).toBe("MISS");
    const page = await closed.text();
    expect(page).toContain("Event submissions are currently closed. Please check back later.");
    expect(page).toContain("<fieldset disabled>");
    await setSubmissionSettings(ctx.deps, true, "admin");
    expect(await (await ctx.request("/submit-event")).text()).not.toContain("currently closed");
  });
});

describe("POST /submit-event", () => {
  test("with htmx: the fragment with the thanks line and a fresh form; stored pending", async () => {
    const res = await post(form({ notes: "Bring a chair" }), { htmx: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("vary")).toContain("HX-Request");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html.startsWith(`<div id="${SUBMISSION_FORM_ID}"`)).toBe(true);
    expect(html).not.toContain("<html");
    expect(html).toContain("Thanks, your event submission has been received for review.");
    expect(html).toContain('name="eventName" type="text" value=""');
    expect(html).toContain('name="formStartedAt" value=""');
    const [row] = await ctx.deps.database.query<Record<string, any>>(sql`select status, payload from event_submissions`);
    expect(row.status).toBe("pending");
    expect(row.payload.notes).toBe("Bring a chair");
    expect(row.payload.proofLink).toBe(`https://jazz.example/${n}`);
  });

  test("without JavaScript: the whole page with the same result", async () => {
    const res = await post(form());
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<!doctype html>");
    expect(html).toContain("Submit Your Event");
    expect(html).toContain("Thanks, your event submission has been received for review.");
  });

  test("invalid fields: 422 with each message next to its field, the typed values kept and escaped", async () => {
    for (const htmx of [true, false]) {
      const res = await post(form({ eventName: '<script>alert("x")</script>', proofLink: "javascript:alert(1)", hostEmail: "nope", arrondissement: "x".repeat(33) }), { htmx });
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html.includes("<!doctype html>")).toBe(!htmx);
      expect(html).toContain("Please check the highlighted fields.");
      expect(html).toMatch(/id="submit-proofLink"[^>]*aria-invalid="true"[^>]*value="javascript:alert\(1\)"/);
      expect(html).toContain('<p class="field-error" id="submit-proofLink-error">Proof link must be an HTTP(S) URL</p>');
      expect(html).toContain('<p class="field-error" id="submit-hostEmail-error">Host email must be a valid email address</p>');
      expect(html).toContain('<p class="field-error" id="submit-arrondissement-error">Arrondissement must be at most 32 characters</p>');
      // The optional section opens to show its error.
      expect(html).toContain('<details class="optional-fields" open>');
      expect(html).not.toContain('<script>alert("x")</script>');
      // Attribute values keep their quotes escaped, so the markup stays inside the value.
      expect(html).toContain('value="<script>alert(&#34;x&#34;)</script>"');
      expect(html).toContain('name="formStartedAt" value="2026-06-18T09:55:00.000Z"');
    }
    expect(await ctx.deps.database.query(sql`select 1 from event_submissions`)).toHaveLength(0);
  });

  test("the honeypot is the Website field: filled, the host still sees thanks and the submission is declined", async () => {
    const res = await post(form({ website: "http://spam.example" }), { htmx: true });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thanks, your event submission has been received for review.");
    const [row] = await ctx.deps.database.query<Record<string, any>>(sql`select status, review_reason from event_submissions`);
    expect(row).toEqual({ status: "declined", review_reason: "spam_signal" });
  });

  test("without JavaScript formStartedAt is empty, which is no spam signal", async () => {
    await post(form({ formStartedAt: "" }));
    const [row] = await ctx.deps.database.query<Record<string, any>>(sql`select status, spam_signals from event_submissions`);
    expect(row.status).toBe("pending");
    expect(row.spam_signals.completionSeconds).toBeNull();
  });

  test("rate limited: 429 with the \"Too many submissions\" text and Retry-After", async () => {
    const ip = "198.51.100.60";
    for (let i = 0; i < 20; i++) await post(form(), { ip });
    ctx.clock.advance(15_000);
    for (const htmx of [true, false]) {
      const res = await post(form(), { ip, htmx });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("585");
      expect(await res.text()).toContain("Too many submissions right now. Please try again in about 10 minutes.");
    }
  });

  test("the same event again: the host reads that it is waiting for review, not a wait in seconds", async () => {
    const same = { eventName: "Duplicate Jazz Night", proofLink: "jazz.example/duplicate" };
    expect((await post(form(same), { ip: "198.51.100.70" })).status).toBe(200);
    ctx.clock.advance(13_000);
    for (const htmx of [true, false]) {
      const res = await post(form(same), { ip: "198.51.100.71", htmx });
      expect(res.status).toBe(429);
      const html = await res.text();
      expect(html).toContain("We already have this event; it is waiting for review.");
      expect(html).not.toContain("seconds");
    }
  });

  test("posted from another site's page: 403 with the notice in the form, nothing stored", async () => {
    for (const headers of [{ origin: "https://evil.example" }, { referer: "https://evil.example/form" }] as Record<string, string>[]) {
      const res = await post(form(), { htmx: true, headers });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("This form can only be sent from the finder site itself.");
    }
    expect(await ctx.deps.database.query(sql`select 1 from event_submissions`)).toHaveLength(0);
    expect((await post(form(), { htmx: true, headers: { origin: "http://finder.test" } })).status).toBe(200);
  });

  test("a body over 64 KiB: 413 with the notice in the page, nothing stored", async () => {
    const body = form({ notes: "n".repeat(64 * 1024) });
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("That submission is too large.");
    expect(await ctx.deps.database.query(sql`select 1 from event_submissions`)).toHaveLength(0);
  });

  test("closed: 503 with the closed notice and the form disabled", async () => {
    await setSubmissionSettings(ctx.deps, false, "admin");
    const res = await post(form(), { htmx: true });
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain("Event submissions are currently closed. Please check back later.");
    expect(html).toContain("<fieldset disabled>");
    await setSubmissionSettings(ctx.deps, true, "admin");
  });
});
