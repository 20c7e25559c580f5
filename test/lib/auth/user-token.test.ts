import { describe, expect, test } from "bun:test";
import { signUserToken, USER_TOKEN, verifyUserToken } from "../../../src/lib/auth/user-token.ts";
import { signAdminToken } from "../../../src/lib/auth/admin-token.ts";
import { claimsOf, forgeToken, tamper, unsignedToken } from "../../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../../helpers/app.ts";

const now = new Date("2026-06-21T10:00:00Z");
const iat = Math.floor(now.getTime() / 1000);
const valid = { email: "a@b.com", v: 1, iat, exp: iat + 2592000, aud: "finder:user", iss: "finder" };

describe("user token", () => {
  test("carries exactly email, v=1, iat, exp=iat+2592000, aud finder:user, iss finder and a random browser-session id; HS256", async () => {
    const { token } = await signUserToken(TEST_AUTH_SECRET, "a@b.com", now);
    const { sid, ...claims } = claimsOf(token) as Record<string, unknown> & { sid: string };
    expect(claims).toEqual(valid);
    expect(sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(claimsOf((await signUserToken(TEST_AUTH_SECRET, "a@b.com", now)).token)).not.toMatchObject({ sid });
    expect(JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" });
    expect(await verifyUserToken(TEST_AUTH_SECRET, token, now)).toEqual({ email: "a@b.com", iat, exp: iat + USER_TOKEN.ttlSeconds, sid });
  });

  test("is valid until one second before exp and rejected at exp", async () => {
    const { token } = await signUserToken(TEST_AUTH_SECRET, "a@b.com", now);
    expect(await verifyUserToken(TEST_AUTH_SECRET, token, new Date((iat + 2592000 - 1) * 1000))).toBeDefined();
    expect(await verifyUserToken(TEST_AUTH_SECRET, token, new Date((iat + 2592000) * 1000))).toBeUndefined();
  });

  const rejected: [string, () => Promise<unknown>][] = [
    ["another secret", () => forgeToken(valid, { secret: "x".repeat(40) })],
    ["tampered email", async () => tamper((await signUserToken(TEST_AUTH_SECRET, "a@b.com", now)).token, { email: "admin@b.com" })],
    ["wrong audience", () => forgeToken({ ...valid, aud: "admin-api" })],
    ["audience as an array", () => forgeToken({ ...valid, aud: ["finder:user", "other"] })],
    ["wrong issuer", () => forgeToken({ ...valid, iss: "someone" })],
    ["alg none", async () => unsignedToken(valid)],
    ["HS512", () => forgeToken(valid, { alg: "HS512" })],
    ["HS384", () => forgeToken(valid, { alg: "HS384" })],
    ["missing email", () => forgeToken({ ...valid, email: undefined })],
    ["missing v", () => forgeToken({ ...valid, v: undefined })],
    ["v = 2", () => forgeToken({ ...valid, v: 2 })],
    ["missing exp", () => forgeToken({ ...valid, exp: undefined })],
    ["missing iat", () => forgeToken({ ...valid, iat: undefined })],
    ["missing aud", () => forgeToken({ ...valid, aud: undefined })],
    ["email not a string", () => forgeToken({ ...valid, email: { $ne: null } })],
    ["expired", () => forgeToken({ ...valid, exp: iat - 1 })],
    ["an admin token", async () => (await signAdminToken(TEST_AUTH_SECRET, { jti: crypto.randomUUID(), tv: 1, now })).token],
    ["garbage", async () => "not-a-jwt"],
    ["three empty parts", async () => ".."],
    ["an object (JSON-looking cookie)", async () => ({ alg: "none" })],
    ["a number", async () => 123],
    ["undefined", async () => undefined],
    ["a very long string", async () => "a".repeat(100_000)],
  ];
  for (const [name, make] of rejected) {
    test(`rejects ${name}`, async () => {
      expect(await verifyUserToken(TEST_AUTH_SECRET, await make(), now)).toBeUndefined();
    });
  }
});
