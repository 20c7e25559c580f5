// Loopback fake of Google's OAuth token endpoint, Sheets values API and CSV export, verifying JWTs with a test RSA key.

import { exportPKCS8, generateKeyPair, jwtVerify, decodeProtectedHeader, type CryptoKey } from "jose";

const GOOGLE_AUDIENCE = "https://oauth2.googleapis.com/token";
const SCOPE = "https://www.googleapis.com/auth/spreadsheets.readonly";

/** A generated service account: the public half for the fake, the credential JSON for the client. */
export interface TestServiceAccount {
  email: string;
  publicKey: CryptoKey;
  pem: string;
  /** Credential JSON as a real key file holds it (newlines escaped once by JSON). */
  json: string;
  /** Credential JSON whose private_key holds literal backslash-n sequences (as pasted into an env var). */
  jsonWithLiteralNewlines: string;
}

/** Creates an RS256 key pair and the credential JSON around it. */
export async function createTestServiceAccount(email = "importer@finder-test.iam.gserviceaccount.com"): Promise<TestServiceAccount> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const pem = await exportPKCS8(privateKey);
  return {
    email,
    publicKey,
    pem,
    json: JSON.stringify({ type: "service_account", client_email: email, private_key: pem }),
    jsonWithLiteralNewlines: JSON.stringify({ client_email: email, private_key: pem.replace(/\n/g, "\\n") }),
  };
}

/** The values every "ok" sheet holds: ragged rows, nulls, and cells needing quotes. */
export const SHEET_VALUES: unknown[][] = [
  ["Title", "Date", "Location", "Notes"],
  ["Jazz, live", "2026-06-21", "Le \"Petit\" Bain"],
  ["Solo", "2026-06-21", null, "line one\nline two"],
  ["Short"],
];

/** What the CSV endpoint serves for a good sheet. */
export const PUBLIC_CSV = "Title,Date\nConcert,2026-06-21\n";

/** A running fake and what it has seen. */
export interface FakeGoogle {
  base: string;
  tokenUrl: string;
  apiUrl: string;
  exportBaseUrl: string;
  tokenRequests: { iss?: unknown; error?: string }[];
  valuesRequests: { sheetId: string; range: string; authorization: string | null }[];
  csvRequests: string[];
  streamedBytes: number;
  stop(): void;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const csv = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/csv; charset=utf-8" } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the fake for `accounts` (token requests signed by any other key fail with invalid_grant).
 * Sheet ids: sheet-ok, sheet-empty (no values), sheet-500, sheet-slow. Issuers starting with
 * "rejected" are refused by the token endpoint. `extraSheets` adds sheet ids with their values,
 * optionally answered after a pause (so a caller's progress display can be watched).
 */
export function startFakeGoogle(accounts: TestServiceAccount[], extraSheets: Record<string, { values: unknown[][]; delayMs?: number }> = {}): FakeGoogle {
  const issued = new Set<string>();
  let tokenCount = 0;
  const fake: Omit<FakeGoogle, "base" | "tokenUrl" | "apiUrl" | "exportBaseUrl" | "stop"> = {
    tokenRequests: [],
    valuesRequests: [],
    csvRequests: [],
    streamedBytes: 0,
  };

  async function token(request: Request): Promise<Response> {
    if (request.method !== "POST") return json({ error: "method" }, 405);
    if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      fake.tokenRequests.push({ error: "content-type" });
      return json({ error: "invalid_request" }, 400);
    }
    const form = new URLSearchParams(await request.text());
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      fake.tokenRequests.push({ error: "grant_type" });
      return json({ error: "unsupported_grant_type" }, 400);
    }
    const assertion = form.get("assertion") ?? "";
    for (const account of accounts) {
      try {
        const { payload } = await jwtVerify(assertion, account.publicKey, {
          algorithms: ["RS256"],
          audience: GOOGLE_AUDIENCE,
          issuer: account.email,
          requiredClaims: ["iat", "exp", "scope"],
        });
        const header = decodeProtectedHeader(assertion);
        const ok = header.typ === "JWT" && payload.scope === SCOPE && payload.exp! - payload.iat! === 3600 && !assertion.includes("=");
        fake.tokenRequests.push({ iss: payload.iss, error: ok ? undefined : "claims" });
        if (!ok) return json({ error: "invalid_grant", error_description: "Invalid JWT claims" }, 400);
        if (account.email.startsWith("rejected")) return json({ error: "invalid_grant", error_description: "Account disabled" }, 400);
        const accessToken = `ya29.fake-${++tokenCount}`;
        issued.add(accessToken);
        return json({ access_token: accessToken, expires_in: 3599, token_type: "Bearer" });
      } catch {
        // Try the next account's key.
      }
    }
    fake.tokenRequests.push({ error: "signature" });
    return json({ error: "invalid_grant", error_description: "Invalid JWT Signature." }, 400);
  }

  async function values(request: Request, sheetId: string, range: string): Promise<Response> {
    const authorization = request.headers.get("authorization");
    fake.valuesRequests.push({ sheetId, range, authorization });
    if (!authorization?.startsWith("Bearer ") || !issued.has(authorization.slice(7))) {
      return json({ error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } }, 401);
    }
    if (sheetId === "sheet-ok") return json({ range: "Sheet1!A1:Z4", majorDimension: "ROWS", values: SHEET_VALUES });
    const extra = Object.hasOwn(extraSheets, sheetId) ? extraSheets[sheetId] : undefined;
    if (extra) {
      if (extra.delayMs) await sleep(extra.delayMs);
      return json({ range: "Sheet1!A1:Z1000", majorDimension: "ROWS", values: extra.values });
    }
    if (sheetId === "sheet-empty") return json({ range: "Sheet1!A1:Z1000", majorDimension: "ROWS" });
    if (sheetId === "sheet-slow") {
      await sleep(1000);
      return json({ values: SHEET_VALUES });
    }
    if (sheetId === "sheet-500") return json({ error: { code: 500, message: "Internal error encountered." } }, 500);
    return json({ error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" } }, 404);
  }

  function bigStream(): Response {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Stops by itself at 64 MiB so a broken client cannot make the test hang.
        if (fake.streamedBytes >= 64 * 1024 * 1024) return controller.close();
        fake.streamedBytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/csv" } });
  }

  async function csvRoute(url: URL): Promise<Response> {
    fake.csvRequests.push(url.pathname + url.search);
    const path = url.pathname;
    const redirect = /^\/csv\/redirect\/(\d+)$/.exec(path);
    if (redirect) {
      const left = Number(redirect[1]);
      const next = left === 0 ? "/csv/ok" : `/csv/redirect/${left - 1}`;
      // Mix absolute and relative Location headers.
      return new Response(null, { status: left % 2 ? 302 : 301, headers: { location: left % 2 ? next : `${url.origin}${next}` } });
    }
    switch (path) {
      case "/csv/ok":
        return csv(PUBLIC_CSV);
      case "/csv/big":
        return bigStream();
      case "/csv/big-declared":
        return csv("a".repeat(6 * 1024 * 1024));
      case "/csv/500":
        return csv("oops", 500);
      case "/csv/empty":
        return csv("");
      case "/csv/one-line":
        return csv("Title,Date\n\n");
      case "/csv/html":
        return new Response("<!doctype html><title>Sign in</title>", { headers: { "content-type": "text/html; charset=utf-8" } });
      case "/csv/slow":
        await sleep(1000);
        return csv(PUBLIC_CSV);
      case "/csv/to-file":
        return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
      case "/csv/no-location":
        return new Response(null, { status: 302 });
      default:
        return csv("not found", 404);
    }
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/token") return token(request);
      const valuesPath = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+)$/.exec(url.pathname);
      if (valuesPath) return values(request, decodeURIComponent(valuesPath[1]!), decodeURIComponent(valuesPath[2]!));
      const exportPath = /^\/spreadsheets\/d\/([^/]+)\/export$/.exec(url.pathname);
      if (exportPath) {
        fake.csvRequests.push(url.pathname + url.search);
        if (url.searchParams.get("format") !== "csv") return csv("bad format", 400);
        if (exportPath[1] === "sheet-ok" || exportPath[1] === "sheet-500") {
          return exportPath[1] === "sheet-ok" ? csv(PUBLIC_CSV) : csv("error", 500);
        }
        return csv("not found", 404);
      }
      if (url.pathname.startsWith("/csv/")) return csvRoute(url);
      return new Response("no route", { status: 404 });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  return Object.assign(fake, {
    base,
    tokenUrl: `${base}/token`,
    apiUrl: `${base}/v4/spreadsheets`,
    exportBaseUrl: `${base}/spreadsheets/d`,
    stop: () => server.stop(true),
  }) as FakeGoogle;
}
