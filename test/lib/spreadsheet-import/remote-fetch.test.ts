// Remote fetch rules: schemes, private targets, redirect limit with per-hop checks, size cap, timeout.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchRemoteText, isPrivateAddress, RemoteFetchError } from "../../../src/lib/spreadsheet-import/remote-fetch.ts";
import { PUBLIC_CSV, startFakeGoogle, type FakeGoogle } from "./fake-google.ts";

let fake: FakeGoogle;
beforeAll(() => {
  fake = startFakeGoogle([]);
});
afterAll(() => fake.stop());

const allowed = { timeoutMs: 2000, allowPrivateHosts: true };

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteFetchError);
    return (error as Error).message;
  }
  throw new Error("expected a RemoteFetchError");
}

describe("isPrivateAddress", () => {
  test.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["8.8.8.8", false],
    ["142.250.74.110", false],
    ["::1", true],
    ["::", true],
    ["[::1]", true],
    ["::ffff:7f00:1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["fe80::1", true],
    ["fd12:3456::1", true],
    ["ff02::1", true],
    ["64:ff9b::10.0.0.1", true],
    ["2001:db8::1", true],
    ["2001:4860:4860::8888", false],
    ["docs.google.com", false],
  ])("%s → %p", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe("fetchRemoteText", () => {
  test("reads a CSV body", async () => {
    const response = await fetchRemoteText(`${fake.base}/csv/ok`, allowed);
    expect(response).toMatchObject({ status: 200, text: PUBLIC_CSV, url: `${fake.base}/csv/ok` });
    expect(response.contentType).toStartWith("text/csv");
  });

  test("follows up to 3 redirects, relative or absolute", async () => {
    const response = await fetchRemoteText(`${fake.base}/csv/redirect/2`, allowed);
    expect(response.text).toBe(PUBLIC_CSV);
    expect(response.url).toBe(`${fake.base}/csv/ok`);
  });

  test("refuses a fourth redirect", async () => {
    const before = fake.csvRequests.length;
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/redirect/3`, allowed))).toBe("Too many redirects (more than 3)");
    expect(fake.csvRequests.length - before).toBe(4);
  });

  test("re-checks every hop: a redirect to file: is refused", async () => {
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/to-file`, allowed))).toBe("Only http and https URLs are allowed");
  });

  test("a redirect without Location is an error", async () => {
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/no-location`, allowed))).toContain("without a Location header");
  });

  test.each(["file:///etc/passwd", "ftp://example.com/a.csv", "javascript:alert(1)", "not a url"])("refuses %s", async (url) => {
    const message = await refusal(fetchRemoteText(url, allowed));
    expect(["Only http and https URLs are allowed", "Invalid URL"]).toContain(message);
  });

  test.each([
    (base: string) => base + "/csv/ok",
    () => "http://localhost:9/csv/ok",
    () => "http://app.localhost/csv/ok",
    () => "http://10.0.0.8/",
    () => "http://169.254.169.254/latest/meta-data/",
    () => "http://[::1]:9/",
    () => "http://[::ffff:127.0.0.1]/",
    () => "http://2130706433/",
    () => "http://0x7f.1/",
  ])("without allowPrivateHosts, private target %# is refused before any request", async (build) => {
    const before = fake.csvRequests.length;
    expect(await refusal(fetchRemoteText(build(fake.base), { timeoutMs: 2000 }))).toBe("Private or loopback hosts are not allowed");
    expect(fake.csvRequests.length).toBe(before);
  });

  test("stops reading a streamed body past the 5 MiB cap", async () => {
    const message = await refusal(fetchRemoteText(`${fake.base}/csv/big`, allowed));
    expect(message).toBe(`Response is larger than ${5 * 1024 * 1024} bytes`);
    expect(fake.streamedBytes).toBeLessThan(32 * 1024 * 1024);
  });

  test("refuses a declared length over the cap without reading it", async () => {
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/big-declared`, allowed))).toContain("larger than");
  });

  test("a smaller cap applies", async () => {
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/ok`, { ...allowed, maxBytes: 10 }))).toBe("Response is larger than 10 bytes");
  });

  test("times out", async () => {
    const started = performance.now();
    expect(await refusal(fetchRemoteText(`${fake.base}/csv/slow`, { ...allowed, timeoutMs: 150 }))).toBe("Request timed out after 150 ms");
    expect(performance.now() - started).toBeLessThan(900);
  });

  test("non-2xx answers come back without a body", async () => {
    expect(await fetchRemoteText(`${fake.base}/csv/500`, allowed)).toMatchObject({ status: 500, text: "" });
  });
});
