import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { clientIp, compileTrustedProxies, forwardedClientIp, trustedProxyProblem, type PeerSource } from "../../src/lib/client-ip.ts";
import { limiterParts } from "../../src/lib/rate-limit/fixed-window.ts";
import { loadConfig, ConfigError } from "../../src/lib/config.ts";
import { testEnv } from "../helpers/app.ts";

const noProxy = () => false;
test.each([
  [{ "x-forwarded-for": "203.0.113.5, 198.51.100.1" }, "198.51.100.1"],
  [{ "x-forwarded-for": "  198.51.100.7 " }, "198.51.100.7"],
  [{ "x-forwarded-for": "198.51.100.7 , " }, "198.51.100.7"],
  [{ "x-forwarded-for": " , " }, "peer"],
  [{ "x-forwarded-for": "203.0.113.5, not-an-ip" }, "peer"],
  [{ "x-forwarded-for": "::ffff:192.0.2.9" }, "192.0.2.9"],
  [{ "x-real-ip": "192.0.2.44" }, "192.0.2.44"],
  [{ "x-real-ip": "junk" }, "peer"],
  [{ "x-forwarded-for": "203.0.113.9", "x-real-ip": "192.0.2.44" }, "203.0.113.9"],
  [{}, "peer"],
])("forwardedClientIp(%o), no proxy trusted = %s", (headers, expected) => {
  expect(forwardedClientIp(new Headers(headers as Record<string, string>), noProxy, "peer")).toBe(expected);
});

test("the default trusted proxies are loopback and the private ranges, IPv4, IPv6 and IPv4-mapped", () => {
  const trusted = compileTrustedProxies(loadConfig(testEnv()).trustedProxies);
  for (const address of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fd00::1", "::ffff:10.0.0.7"]) expect([address, trusted(address)]).toEqual([address, true]);
  for (const address of ["203.0.113.5", "172.32.0.1", "8.8.8.8", "2001:db8::1", "::ffff:203.0.113.5", "fe80::1", "not-an-ip", ""]) expect([address, trusted(address)]).toEqual([address, false]);
});

test("TRUSTED_PROXIES takes addresses and CIDR ranges; `none` trusts nobody; bad entries stop startup", () => {
  const custom = compileTrustedProxies(loadConfig(testEnv({ TRUSTED_PROXIES: "203.0.113.0/24, 2001:db8::/32, 198.51.100.7" })).trustedProxies);
  expect(["203.0.113.200", "2001:db8:1::5", "198.51.100.7", "::ffff:203.0.113.1"].map(custom)).toEqual([true, true, true, true]);
  expect(["127.0.0.1", "198.51.100.8", "10.0.0.1"].map(custom)).toEqual([false, false, false]);
  expect(compileTrustedProxies(loadConfig(testEnv({ TRUSTED_PROXIES: "none" })).trustedProxies)("127.0.0.1")).toBe(false);
  expect(trustedProxyProblem("10.0.0.0/33")).toContain("10.0.0.0/33");
  expect(() => loadConfig(testEnv({ TRUSTED_PROXIES: "loopback, proxy.example.com" }))).toThrow(ConfigError);
});

const peer = (address: string | null): PeerSource => ({ requestIP: () => (address === null ? null : { address }) });
const request = (headers: Record<string, string>) => new Request("http://finder.test/", { headers });

test("a direct client is its socket address whatever headers it sends; a trusted proxy names the client", () => {
  const config = loadConfig(testEnv());
  const spoof = { "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" };
  expect(clientIp(config, request(spoof), peer("203.0.113.5"))).toBe("203.0.113.5");
  expect(clientIp(config, request(spoof), peer("::ffff:203.0.113.5"))).toBe("203.0.113.5");
  expect(clientIp(config, request({}), peer("2001:db8::7"))).toBe("2001:db8::7");
  expect(clientIp(config, request(spoof), peer("10.0.0.2"))).toBe("1.2.3.4");
  expect(clientIp(config, request({ "x-real-ip": "5.6.7.8" }), peer("::1"))).toBe("5.6.7.8");
  // A trusted peer that names nobody is itself the client.
  expect(clientIp(config, request({}), peer("127.0.0.1"))).toBe("127.0.0.1");
  expect(clientIp(config, request({}), peer(null))).toBe("unknown");
  // No socket address (a Unix socket, an in-process call): only this machine can send it.
  expect(clientIp(config, request(spoof), peer(null))).toBe("1.2.3.4");
  expect(clientIp(config, request(spoof), undefined)).toBe("1.2.3.4");
  expect(clientIp(loadConfig(testEnv({ TRUSTED_PROXIES: "none" })), request(spoof), peer("127.0.0.1"))).toBe("127.0.0.1");
});

// The chains each kind of front end produces. The client 192.0.2.50 always sends a forged entry
// (198.51.100.66) first, as an attacker would; whatever the front end does, it is never the answer.
describe("proxy chains, walked from the right past trusted proxies", () => {
  const FORGED = "198.51.100.66";
  const CLIENT = "192.0.2.50";
  test("direct exposure (TRUSTED_PROXIES=none): the socket address, headers ignored", () => {
    const config = loadConfig(testEnv({ TRUSTED_PROXIES: "none" }));
    expect(clientIp(config, request({ "x-forwarded-for": FORGED }), peer(CLIENT))).toBe(CLIENT);
  });
  test("an appending proxy (nginx $proxy_add_x_forwarded_for, cloud load balancers): the entry it added", () => {
    const config = loadConfig(testEnv({ TRUSTED_PROXIES: "127.0.0.1" }));
    expect(clientIp(config, request({ "x-forwarded-for": `${FORGED}, ${CLIENT}` }), peer("127.0.0.1"))).toBe(CLIENT);
    expect(clientIp(config, request({ "x-forwarded-for": `${FORGED},${FORGED}, ${CLIENT}` }), peer("127.0.0.1"))).toBe(CLIENT);
  });
  test("an overwriting proxy (X-Forwarded-For $remote_addr): its single entry", () => {
    const config = loadConfig(testEnv({ TRUSTED_PROXIES: "10.0.0.0/8" }));
    expect(clientIp(config, request({ "x-forwarded-for": CLIENT, "x-real-ip": FORGED }), peer("10.1.2.3"))).toBe(CLIENT);
    expect(clientIp(config, request({ "x-real-ip": CLIENT }), peer("10.1.2.3"))).toBe(CLIENT);
  });
  test("several hops (a CDN, then a load balancer, then nginx): every trusted hop is skipped", () => {
    const config = loadConfig(testEnv({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8, 203.0.113.0/24" }));
    expect(clientIp(config, request({ "x-forwarded-for": `${FORGED}, ${CLIENT}, 203.0.113.7, 10.0.0.4` }), peer("127.0.0.1"))).toBe(CLIENT);
    // A chain of nothing but trusted hops: the leftmost of them is as far as anyone can tell.
    expect(clientIp(config, request({ "x-forwarded-for": "203.0.113.7, 10.0.0.4" }), peer("127.0.0.1"))).toBe("203.0.113.7");
    // A hop the operator did not list stops the walk: it is the client as far as the trusted chain knows.
    expect(clientIp(config, request({ "x-forwarded-for": `${FORGED}, ${CLIENT}, 198.51.100.200, 10.0.0.4` }), peer("127.0.0.1"))).toBe("198.51.100.200");
  });
  test("a plain TCP forwarder that is not listed: every client behind it is the forwarder", () => {
    const config = loadConfig(testEnv({ TRUSTED_PROXIES: "127.0.0.1" }));
    expect(clientIp(config, request({ "x-forwarded-for": FORGED }), peer("127.0.0.2"))).toBe("127.0.0.2");
  });
});

test("limiter keys: IPv6 clients share their /64, IPv4 clients are one address each", () => {
  expect(limiterParts.ip("2001:db8:1:2:aaaa::1")).toBe(limiterParts.ip("2001:db8:1:2:ffff:1:2:3"));
  expect(limiterParts.ip("2001:db8:1:2::1")).not.toBe(limiterParts.ip("2001:db8:1:3::1"));
  expect(limiterParts.ip("203.0.113.5")).toBe("203.0.113.5");
  expect(limiterParts.ip(" ")).toBe("unknown");
});

test("an address reads as ipaddr reads it, fast path or not: leading zeros, out-of-range parts, mapped and plain", () => {
  const reference = (text: string) => (ipaddr.isValid(text) ? ipaddr.process(text).toString() : text.slice(0, 100));
  const octet = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom("00", "01", "010", "0x1f", "255", "256", "", " 1"));
  const dotted = fc.array(octet, { minLength: 3, maxLength: 5 }).map((parts) => parts.join("."));
  const mapped = dotted.map((d) => `::ffff:${d}`);
  fc.assert(
    fc.property(fc.oneof(dotted, mapped, fc.string({ maxLength: 20 })), (text) => {
      const headers = new Headers({ "x-forwarded-for": text.replaceAll(",", "") });
      const only = text.replaceAll(",", "").trim();
      expect(forwardedClientIp(headers, noProxy, "unknown")).toBe(only && ipaddr.isValid(only) ? reference(only) : "unknown");
    }),
    { numRuns: 2000 },
  );
  // Trust decisions are remembered per address and stay right for each.
  const trusted = compileTrustedProxies(["10.0.0.0/8"]);
  // "012.0.0.1" is octal 10.0.0.1 to ipaddr, "010.0.0.1" is 8.0.0.1.
  for (let round = 0; round < 2; round++) expect(["10.0.0.1", "11.0.0.1", "012.0.0.1", "010.0.0.1", "::ffff:10.0.0.9"].map(trusted)).toEqual([true, false, true, false, true]);
});
