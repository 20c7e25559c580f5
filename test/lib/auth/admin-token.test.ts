import { describe, expect, test } from "bun:test";
import { isUuidV4, signAdminToken, verifyAdminToken } from "../../../src/lib/auth/admin-token.ts";
import { signUserToken } from "../../../src/lib/auth/user-token.ts";
import { claimsOf, forgeToken, tamper, unsignedToken } from "../../helpers/auth.ts";
import { TEST_AUTH_SECRET } from "../../helpers/app.ts";

const now = new Date("2026-06-21T10:00:00Z");
const iat = Math.floor(now.getTime() / 1000);
const jti = "3b241101-e2bb-4255-8caf-4136c566a962";
const valid = { type: "admin", jti, tv: 1, iat, exp: iat + 3600, aud: "admin-api", iss: "finder" };

describe("admin token", () => {
  test("carries type admin, a UUID v4 jti, tv, iat, exp=iat+3600, aud admin-api, iss finder", async () => {
    const minted = await signAdminToken(TEST_AUTH_SECRET, { jti: crypto.randomUUID(), tv: 3, now });
    const claims = claimsOf(minted.token);
    expect(Object.keys(claims).sort()).toEqual(["aud", "exp", "iat", "iss", "jti", "tv", "type"]);
    expect(claims).toMatchObject({ type: "admin", tv: 3, iat, exp: iat + 3600, aud: "admin-api", iss: "finder" });
    expect(isUuidV4(claims.jti)).toBe(true);
    expect(await verifyAdminToken(TEST_AUTH_SECRET, minted.token, now)).toEqual({ jti: minted.jti, tv: 3, iat, exp: iat + 3600 });
  });

  test("is rejected at exp, accepted one second before", async () => {
    const token = await forgeToken(valid);
    expect(await verifyAdminToken(TEST_AUTH_SECRET, token, new Date((iat + 3599) * 1000))).toBeDefined();
    expect(await verifyAdminToken(TEST_AUTH_SECRET, token, new Date((iat + 3600) * 1000))).toBeUndefined();
  });

  const rejected: [string, () => Promise<unknown>][] = [
    ["another secret", () => forgeToken(valid, { secret: "y".repeat(40) })],
    ["tampered tv", async () => tamper(await forgeToken(valid), { tv: 99 })],
    ["wrong audience", () => forgeToken({ ...valid, aud: "finder:user" })],
    ["wrong issuer", () => forgeToken({ ...valid, iss: "evil" })],
    ["alg none", async () => unsignedToken(valid)],
    ["HS512", () => forgeToken(valid, { alg: "HS512" })],
    ["type not admin", () => forgeToken({ ...valid, type: "user" })],
    ["missing type", () => forgeToken({ ...valid, type: undefined })],
    ["missing jti", () => forgeToken({ ...valid, jti: undefined })],
    ["jti not a UUID", () => forgeToken({ ...valid, jti: "1 or 1=1" })],
    ["jti a UUID v1", () => forgeToken({ ...valid, jti: "3b241101-e2bb-1255-8caf-4136c566a962" })],
    ["missing tv", () => forgeToken({ ...valid, tv: undefined })],
    ["tv a string", () => forgeToken({ ...valid, tv: "1" })],
    ["tv zero", () => forgeToken({ ...valid, tv: 0 })],
    ["missing iat", () => forgeToken({ ...valid, iat: undefined })],
    ["missing exp", () => forgeToken({ ...valid, exp: undefined })],
    ["expired", () => forgeToken({ ...valid, exp: iat })],
    ["a user token", async () => (await signUserToken(TEST_AUTH_SECRET, "a@b.com", now)).token],
    ["garbage", async () => "garbage.garbage.garbage"],
    ["an object", async () => ({ type: "admin" })],
  ];
  for (const [name, make] of rejected) {
    test(`rejects ${name}`, async () => {
      expect(await verifyAdminToken(TEST_AUTH_SECRET, await make(), now)).toBeUndefined();
    });
  }
});
