import { describe, expect, test } from "bun:test";
import { adminKeyMatches, bearerToken, isSameOriginRequest, isStateChanging } from "../../../src/lib/auth/admin-credentials.ts";

describe("adminKeyMatches", () => {
  const config = { adminKey: "s3cret-key" };
  test.each([
    ["s3cret-key", true],
    ["  s3cret-key\t", true],
    ["s3cret-ke", false],
    ["S3CRET-KEY", false],
    ["s3cret-key ", true],
    ["", false],
    ["x".repeat(513), false],
  ])("%p → %p", (key, expected) => expect(adminKeyMatches(config, key)).toBe(expected));
  test("non-strings and an unset ADMIN_KEY never match", () => {
    for (const v of [undefined, null, 1, ["s3cret-key"], { key: "s3cret-key" }]) expect(adminKeyMatches(config, v)).toBe(false);
    expect(adminKeyMatches({ adminKey: undefined }, "")).toBe(false);
    expect(adminKeyMatches({ adminKey: undefined }, "anything")).toBe(false);
  });
});

describe("bearerToken", () => {
  test.each([
    ["Bearer abc.def.ghi", "abc.def.ghi"],
    ["bearer abc", "abc"],
    ["BEARER \t abc ", "abc"],
    ["Basic dXNlcjpwYXNz", undefined],
    ["Bearer", undefined],
    ["Bearer a b", undefined],
    ["Bearerabc", undefined],
    [null, undefined],
  ])("%p → %p", (header, expected) => expect(bearerToken(header)).toBe(expected as string | undefined));
});

describe("isSameOriginRequest", () => {
  const config = { siteUrl: "https://finder.example" };
  const req = (url: string, headers: Record<string, string>) => new Request(url, { method: "POST", headers });
  test.each([
    ["site origin", "http://10.0.0.5:3000/api/x", { origin: "https://finder.example" }, true],
    ["request's own host", "http://127.0.0.1:3000/api/x", { origin: "http://127.0.0.1:3000" }, true],
    ["same-origin referer without Origin", "http://127.0.0.1:3000/api/x", { referer: "https://finder.example/admin" }, true],
    ["foreign origin", "https://finder.example/api/x", { origin: "https://evil.example" }, false],
    ["look-alike host", "https://finder.example/api/x", { origin: "https://finder.example.evil.example" }, false],
    ["other port", "https://finder.example/api/x", { origin: "https://finder.example:8443" }, false],
    ["Origin null", "https://finder.example/api/x", { origin: "null", referer: "https://finder.example/" }, false],
    ["neither header", "https://finder.example/api/x", {}, false],
    ["malformed referer", "https://finder.example/api/x", { referer: "::::" }, false],
    ["foreign origin with a same-origin referer", "https://finder.example/api/x", { origin: "https://evil.example", referer: "https://finder.example/" }, false],
  ])("%s", (_name, url, headers, expected) => expect(isSameOriginRequest(config, req(url, headers as Record<string, string>))).toBe(expected));

  test("state-changing methods", () => {
    expect(["GET", "HEAD", "OPTIONS", "get"].map(isStateChanging)).toEqual([false, false, false, false]);
    expect(["POST", "PUT", "PATCH", "DELETE"].map(isStateChanging)).toEqual([true, true, true, true]);
  });
});
