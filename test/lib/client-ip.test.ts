import { expect, test } from "bun:test";
import { clientIp } from "../../src/lib/client-ip.ts";

test.each([
  [{ "x-forwarded-for": "203.0.113.5, 10.0.0.1" }, "203.0.113.5"],
  [{ "x-forwarded-for": "  198.51.100.7 " }, "198.51.100.7"],
  [{ "x-forwarded-for": " , 10.0.0.1" }, "unknown"],
  [{ "x-real-ip": "192.0.2.44" }, "192.0.2.44"],
  [{ "x-forwarded-for": "203.0.113.9", "x-real-ip": "192.0.2.44" }, "203.0.113.9"],
  [{}, "unknown"],
])("clientIp(%o) = %s", (headers, expected) => {
  expect(clientIp(new Headers(headers as Record<string, string>))).toBe(expected);
});
