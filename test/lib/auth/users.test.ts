import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { normaliseEmail, upsertUser } from "../../../src/lib/auth/users.ts";
import { parseSignIn } from "../../../src/lib/auth/sign-in.ts";

describe("normaliseEmail", () => {
  test.each([
    ["  Someone@Example.COM ", "someone@example.com"],
    ["a@b.co", "a@b.co"],
    ["élise@exemple.fr", "élise@exemple.fr"],
    ["a+tag@sub.example.org", "a+tag@sub.example.org"],
    ["no-at-sign.com", undefined],
    ["two@@example.com", undefined],
    ["a@b@c.com", undefined],
    ["space in@example.com", undefined],
    ["a@nodot", undefined],
    ["@example.com", undefined],
    ["", undefined],
    [`${"a".repeat(243)}@example.com`, undefined], // 255 characters
    [`${"a".repeat(242)}@example.com`, `${"a".repeat(242)}@example.com`], // 254 characters
    ["<script>@x.com", "<script>@x.com"],
  ])("%p → %p", (raw, expected) => expect(normaliseEmail(raw)).toBe(expected as string | undefined));

  test("non-strings are invalid", () => {
    for (const v of [null, undefined, 42, {}, ["a@b.com"], true]) expect(normaliseEmail(v)).toBeUndefined();
  });
});

describe("parseSignIn", () => {
  test.each([
    [undefined, "body", "Invalid request payload"],
    [[], "body", "Invalid request payload"],
    ["a@b.com", "body", "Invalid request payload"],
    [{}, "email", "Valid email address is required"],
    [{ email: 5 }, "email", "Valid email address is required"],
    [{ email: "a@b.com", firstName: "A" }, "firstName", "First name must be at least 2 characters"],
    [{ email: "a@b.com", lastName: " B " }, "lastName", "Last name must be at least 2 characters"],
    [{ email: "a@b.com", firstName: "x".repeat(81) }, "firstName", "First name must be at most 80 characters"],
    [{ email: "a@b.com", firstName: 12 }, "firstName", "First name must be at least 2 characters"],
    [{ email: "a@b.com", consent: "yes" }, "consent", "Consent must be true or false"],
    [{ email: "a@b.com", source: "s".repeat(81) }, "source", "Source must be text of at most 80 characters"],
  ])("%p → %p", (body, field, error) => expect(parseSignIn(body)).toEqual({ ok: false, field, error }));

  test("accepts optional fields, trims names, treats blanks as not given", () => {
    expect(parseSignIn({ email: " A@B.com", firstName: "  Ana ", lastName: "", consent: true, source: " home " })).toEqual({
      ok: true,
      details: { email: "a@b.com", firstName: "Ana", lastName: undefined, consent: true, source: "home" },
    });
  });
});

describe("upsertUser", () => {
  const ctx = useTestApp();

  test("creates, then re-verifies: counts and last seen move; names, consent and source stay as first recorded; every sign-in is logged", async () => {
    const t1 = new Date("2026-06-20T09:00:00Z");
    const t2 = new Date("2026-06-21T09:00:00Z");
    expect(await upsertUser(ctx.deps.db, { email: "u@x.com", firstName: "Ana", lastName: "Lopez", consent: true }, t1)).toEqual({ created: true });
    expect(await upsertUser(ctx.deps.db, { email: "u@x.com", lastName: "Martin", source: "home" }, t2)).toEqual({ created: false });
    const [user] = await ctx.deps.database.query<Record<string, unknown>>(sql`select * from users where email = 'u@x.com'`);
    // A later sign-in proves nothing about the address, so it never overwrites what the first recorded.
    expect(user.first_name).toBe("Ana");
    expect(user.last_name).toBe("Lopez");
    expect(user.consent).toBe(true);
    expect(user.source).toBe("finder-auth");
    expect(user.verification_count).toBe(2);
    expect(new Date(user.first_seen_at as string).toISOString()).toBe(t1.toISOString());
    expect(new Date(user.last_seen_at as string).toISOString()).toBe(t2.toISOString());
    const log = await ctx.deps.database.query<Record<string, unknown>>(sql`select email, first_name, last_name, source from user_verifications order by id`);
    expect(log).toEqual([
      { email: "u@x.com", first_name: "Ana", last_name: "Lopez", source: "finder-auth" },
      { email: "u@x.com", first_name: null, last_name: "Martin", source: "home" },
    ]);
  });
});
