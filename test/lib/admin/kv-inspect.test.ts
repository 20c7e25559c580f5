import { describe, expect, test } from "bun:test";
import { parseKvQuery, redactSecrets } from "../../../src/lib/admin/kv-inspect.ts";

describe("parseKvQuery", () => {
  test("defaults: list mode, empty prefix, limit 100, no values", () => {
    expect(parseKvQuery({})).toEqual({ ok: true, query: { mode: "list", prefix: "", limit: 100, includeValues: false } });
  });
  test("key wins over prefix; includeValues accepts 1/true/yes", () => {
    expect(parseKvQuery({ key: " a ", prefix: "b", includeValues: "1" })).toEqual({ ok: true, query: { mode: "key", key: "a", includeValues: true } });
    expect(parseKvQuery({ prefix: "maps", limit: "500", includeValues: "TRUE" })).toEqual({ ok: true, query: { mode: "list", prefix: "maps", limit: 500, includeValues: true } });
  });
  test.each(["0", "501", "-1", "1.5", "1e2", "abc", " 7x"])("limit %p is refused", (limit) => {
    expect(parseKvQuery({ limit }).ok).toBe(false);
  });
  test("non-string query values are ignored", () => {
    expect(parseKvQuery({ key: ["a", "b"], limit: ["5"] })).toEqual({ ok: true, query: { mode: "list", prefix: "", limit: 100, includeValues: false } });
  });
});

describe("redactSecrets", () => {
  test("fields named like secrets are replaced at any depth; other values are kept", () => {
    expect(redactSecrets({ a: 1, clientSecret: "x", list: [{ access_token: "t", ok: true }], deep: { private_key: "k", api_key: "k", password: "p" } })).toEqual({
      a: 1,
      clientSecret: "[redacted]",
      list: [{ access_token: "[redacted]", ok: true }],
      deep: { private_key: "[redacted]", api_key: "[redacted]", password: "[redacted]" },
    });
    expect(redactSecrets("plain")).toBe("plain");
    expect(redactSecrets(null)).toBe(null);
  });
});
