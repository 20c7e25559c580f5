// The client IP behind every per-IP limit and session record (see docs/auth-and-admin.md, "Client
// IP"): the socket address of the connecting peer. Only when that peer is a trusted proxy
// (TRUSTED_PROXIES) do the proxy headers name the client: X-Forwarded-For walked from the right,
// past every trusted proxy, to the first untrusted address (else X-Real-IP, else the peer). A
// client can never choose its own IP: whatever it writes into X-Forwarded-For sits left of the
// address its first trusted proxy appended, and is never reached.

import ipaddr from "ipaddr.js";
import { memoised } from "./memo/memo.ts";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Named groups accepted in TRUSTED_PROXIES besides addresses and CIDR ranges. */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  none: [],
};

/** The setting this module reads: TRUSTED_PROXIES, validated by the config (which imports this module). */
export interface ProxyConfig {
  trustedProxies: readonly string[];
}

/** What Bun's server offers for a request: its socket peer (null on a Unix socket). */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null;
}

/** Why a TRUSTED_PROXIES entry is not usable, or undefined when it is. */
export function trustedProxyProblem(entry: string): string | undefined {
  if (entry.toLowerCase() in NAMED_RANGES) return undefined;
  try {
    parseRange(entry);
    return undefined;
  } catch {
    return `"${entry}" is not an IP address, a CIDR range, loopback, private or none`;
  }
}

function parseRange(entry: string): Range {
  if (entry.includes("/")) {
    const [address, bits] = ipaddr.parseCIDR(entry);
    // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [address, bits];
  }
  const address = ipaddr.process(entry);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

/** Parses an address, IPv4-mapped IPv6 (::ffff:1.2.3.4) read as the IPv4 address; undefined when invalid. */
function parseAddress(text: string): Address | undefined {
  try {
    return ipaddr.process(text);
  } catch {
    return undefined;
  }
}

// A dotted-quad IPv4 address without leading zeros is already canonical (ipaddr would read "010"
// as octal, so those still take the parse). Nearly every address a request carries looks like
// this, and parsing it was about a tenth of a tracking request's CPU.
const PLAIN_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Trust decisions kept per peer address (the peers are a handful of proxies, or many direct clients: bounded). */
const MAX_TRUST_MEMO = 1024;

/** A matcher for a list of TRUSTED_PROXIES entries (already validated by the config). */
export function compileTrustedProxies(entries: readonly string[]): (address: string) => boolean {
  const ranges: Range[] = [];
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    for (const item of named ?? [entry]) ranges.push(parseRange(item));
  }
  return memoised(MAX_TRUST_MEMO, (text) => {
    const address = parseAddress(text);
    return address !== undefined && ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
  });
}

const matchers = new WeakMap<readonly string[], (address: string) => boolean>();

function isTrusted(config: ProxyConfig, address: string): boolean {
  let match = matchers.get(config.trustedProxies);
  if (!match) {
    match = compileTrustedProxies(config.trustedProxies);
    matchers.set(config.trustedProxies, match);
  }
  return match(address);
}

/** An address in its canonical text (IPv4-mapped read as IPv4); other text is kept, bounded. */
function canonical(text: string): string {
  if (PLAIN_IPV4.test(text)) return text;
  const address = parseAddress(text);
  return address ? address.toString() : text.slice(0, 100);
}

/**
 * The client named by a trusted peer's headers. X-Forwarded-For is read from the right: each proxy
 * appends the address it received the request from, so the entries a trusted proxy added are
 * skipped and the first address that is not a trusted proxy is the client (anything left of it is
 * what the client itself sent, and is never read). An unparsable entry ends the walk and the last
 * good address counts. With no X-Forwarded-For, X-Real-IP names the client. `fallback` is the
 * answer when the headers name nobody: the peer's own address, or "unknown" when there is none.
 */
export function forwardedClientIp(headers: Headers, trusted: (address: string) => boolean, fallback: string): string {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded !== null) {
    let client = fallback;
    const entries = forwarded.split(",");
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!.trim();
      if (entry === "") continue;
      const address = PLAIN_IPV4.test(entry) ? entry : parseAddress(entry)?.toString();
      if (address === undefined) break;
      client = address;
      if (!trusted(address)) break;
    }
    return client;
  }
  const real = headers.get("x-real-ip")?.trim();
  if (!real) return fallback;
  return PLAIN_IPV4.test(real) ? real : (parseAddress(real)?.toString() ?? fallback);
}

/**
 * The caller's IP. `server` is the listening Bun server (Elysia's `server` in a handler). A request
 * with no socket address (a Unix socket, or a call made inside the process) can only come from
 * this machine and is treated like a trusted local proxy.
 */
export function clientIp(config: ProxyConfig, request: Request, server: PeerSource | null | undefined): string {
  let peer: string | undefined;
  try {
    peer = server?.requestIP(request)?.address ?? undefined;
  } catch {
    peer = undefined;
  }
  if (peer === undefined) return forwardedClientIp(request.headers, (address) => isTrusted(config, address), "unknown");
  if (!isTrusted(config, peer)) return canonical(peer);
  return forwardedClientIp(request.headers, (address) => isTrusted(config, address), canonical(peer));
}
