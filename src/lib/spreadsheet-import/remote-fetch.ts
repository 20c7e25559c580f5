// Guarded fetch of a remote URL (spreadsheet CSV): http/https only, no private targets, size cap, redirect limit, timeout.

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { readCapped } from "../http/responses.ts";

/** Largest body read from a remote URL (5 MiB). */
export const REMOTE_MAX_BYTES = 5 * 1024 * 1024;
/** Redirects followed before giving up. */
export const REMOTE_MAX_REDIRECTS = 3;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A refused or failed remote fetch; the message is safe to show to an admin. */
export class RemoteFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RemoteFetchError";
  }
}

/** Limits of one remote fetch. */
export interface RemoteFetchOptions {
  timeoutMs: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Allows loopback and private targets (tests only; production keeps this false). */
  allowPrivateHosts?: boolean;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** What came back: status, content type, final URL, and the body (read only for 2xx answers). */
export interface RemoteResponse {
  status: number;
  contentType: string;
  url: string;
  text: string;
}

function parseIPv4(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null;
}

function isPrivateIPv4([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a! >= 224
  );
}

/** Expands an IPv6 literal (already validated by isIP, optional trailing dotted quad) into eight 16-bit groups. */
function parseIPv6(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const tail: number[] = [];
  const withV4 = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (withV4) {
    const v4 = parseIPv4(withV4[2]!);
    if (!v4) return null;
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    text = withV4[1]!.endsWith("::") ? withV4[1]! : withV4[1]!.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const toGroups = (part: string) => (part === "" ? [] : part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<number>(missing).fill(0), ...rest, ...tail];
  return groups.every((g) => Number.isInteger(g)) ? groups : null;
}

function isPrivateIPv6(groups: number[]): boolean {
  const [g0, , , , , g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const firstFiveZero = groups.slice(0, 5).every((g) => g === 0);
  const embeddedV4 = [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255];
  if (firstFiveZero && g5 === 0xffff) return isPrivateIPv4(embeddedV4); // ::ffff:a.b.c.d
  if (firstFiveZero && g5 === 0) return true; // ::, ::1 and the deprecated ::a.b.c.d
  if (g0 === 0x64 && groups[1] === 0xff9b) return isPrivateIPv4(embeddedV4); // NAT64
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local
    (g0 & 0xffc0) === 0xfe80 || // link local
    (g0 & 0xff00) === 0xff00 || // multicast
    (g0 === 0x2001 && groups[1] === 0x0db8) // documentation
  );
}

/** True for loopback, private, link-local, shared, documentation, multicast and unspecified addresses. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const kind = isIP(bare.replace(/%.*$/, ""));
  if (kind === 4) return isPrivateIPv4(parseIPv4(bare)!);
  if (kind === 6) {
    const groups = parseIPv6(bare);
    return groups === null || isPrivateIPv6(groups);
  }
  return false;
}

async function assertAllowedTarget(url: URL, allowPrivateHosts: boolean): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RemoteFetchError("Only http and https URLs are allowed");
  if (allowPrivateHosts) return;
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (host === "" || host === "localhost" || host.endsWith(".localhost")) throw new RemoteFetchError("Private or loopback hosts are not allowed");
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new RemoteFetchError("Private or loopback hosts are not allowed");
    return;
  }
  // A public name may still point inside; every address it resolves to must be public.
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new RemoteFetchError(`Could not resolve host ${host}`);
  }
  if (addresses.length === 0 || addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new RemoteFetchError("Private or loopback hosts are not allowed");
  }
}

function describeFetchFailure(error: unknown, timeoutMs: number): RemoteFetchError {
  if (error instanceof RemoteFetchError) return error;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new RemoteFetchError(`Request timed out after ${timeoutMs} ms`);
  }
  return new RemoteFetchError(`Request failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** Reads a body as UTF-8 text, stopping (and cancelling the stream) as soon as it exceeds `maxBytes`. */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new RemoteFetchError(`Response is larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return "";
  const bytes = await readCapped(response.body, maxBytes);
  if (bytes === "too_large") throw tooLarge();
  return new TextDecoder("utf-8").decode(bytes);
}

/**
 * GETs a remote URL under the remote-fetch rules. Redirects are followed by hand so every hop is
 * re-checked; the timeout covers the whole chain and the body. Non-2xx answers come back without a body.
 */
export async function fetchRemoteText(rawUrl: string, options: RemoteFetchOptions): Promise<RemoteResponse> {
  const maxBytes = options.maxBytes ?? REMOTE_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? REMOTE_MAX_REDIRECTS;
  const doFetch = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new RemoteFetchError("Invalid URL");
  }

  try {
    for (let redirects = 0; ; redirects++) {
      await assertAllowedTarget(url, options.allowPrivateHosts === true);
      const response = await doFetch(url, { redirect: "manual", signal, headers: options.headers });
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get("location");
        if (!location) throw new RemoteFetchError(`Redirect (HTTP ${response.status}) without a Location header`);
        if (redirects >= maxRedirects) throw new RemoteFetchError(`Too many redirects (more than ${maxRedirects})`);
        try {
          url = new URL(location, url);
        } catch {
          throw new RemoteFetchError("Redirect to an invalid URL");
        }
        continue;
      }
      const contentType = response.headers.get("content-type") ?? "";
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => {});
        return { status: response.status, contentType, url: url.toString(), text: "" };
      }
      const text = await readBodyCapped(response, maxBytes);
      return { status: response.status, contentType, url: url.toString(), text };
    }
  } catch (error) {
    throw describeFetchFailure(error, options.timeoutMs);
  }
}
