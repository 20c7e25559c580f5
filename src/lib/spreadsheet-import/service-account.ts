// Spreadsheet access with a service account (see docs/store-and-backups.md, "Spreadsheet import"):
// RS256 JWT, token exchange with a cache the caller owns (one per process, in Deps), values API → CSV.

import { importPKCS8, SignJWT } from "jose";
import { csvLine, type CsvValue } from "../sheet/csv.ts";
import { readBodyCapped } from "./remote-fetch.ts";

/** Scope requested for the sheet (read-only). */
export const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets.readonly";
/** The JWT audience: always Google's token URL, even when `tokenUrl` points elsewhere (tests, proxies). */
export const GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";
/** Token exchange timeout: 10 s. */
export const TOKEN_TIMEOUT_MS = 10_000;
/** Values API timeout: 15 s. */
export const VALUES_TIMEOUT_MS = 15_000;
/** Largest values API answer read (JSON is bulkier than the CSV it becomes). */
export const VALUES_MAX_BYTES = 10 * 1024 * 1024;

const JWT_LIFETIME_S = 3600;
// A cached token is dropped this long before it expires, so a request never carries a dying token.
const TOKEN_REFRESH_MARGIN_MS = 60_000;
const ERROR_BODY_MAX = 300;
const CONFIG_ERROR = "Service account configuration error";

/** A spreadsheet-source failure whose message is safe to show to an admin (never contains the key). */
export class SheetSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SheetSourceError";
  }
}

/** The two credential fields the service uses. */
export interface ServiceAccountCredential {
  clientEmail: string;
  privateKey: string;
}

/** Where and how the service account talks to the provider. */
export interface ServiceAccountAccess {
  tokenUrl: string;
  apiUrl: string;
  fetch?: typeof fetch;
  now?: () => Date;
  tokenTimeoutMs?: number;
  valuesTimeoutMs?: number;
  /** Parsed keys and live tokens; the process keeps one (deps.sheetTokens), a test a fresh one. */
  tokens: SheetTokenCache;
}

interface ParsedCredential {
  credential: ServiceAccountCredential;
  key: Promise<CryptoKey>;
}

/**
 * What the service account remembers between requests: each credential text parsed once (a handful
 * at most), the access token per token URL and account until 60 s before it expires, and the
 * exchange in flight so concurrent callers share it.
 */
export interface SheetTokenCache {
  readonly parsed: Map<string, ParsedCredential>;
  readonly tokens: Map<string, { token: string; refreshAfterMs: number }>;
  readonly pending: Map<string, Promise<string>>;
}

/** An empty cache; buildDeps makes the process's one. */
export function createSheetTokenCache(): SheetTokenCache {
  return { parsed: new Map(), tokens: new Map(), pending: new Map() };
}

/** Reads the credential JSON (`client_email`, `private_key` with literal `\n` turned into newlines); throws on a missing field. */
export function parseServiceAccountKey(raw: string): ServiceAccountCredential {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new SheetSourceError(CONFIG_ERROR);
  }
  const fields = (typeof value === "object" && value !== null ? value : {}) as { client_email?: unknown; private_key?: unknown };
  const clientEmail = typeof fields.client_email === "string" ? fields.client_email.trim() : "";
  const privateKey = typeof fields.private_key === "string" ? fields.private_key.replace(/\\n/g, "\n") : "";
  if (clientEmail === "" || privateKey.trim() === "") throw new SheetSourceError(CONFIG_ERROR);
  return { clientEmail, privateKey };
}

function parsedCredential(raw: string, cache: SheetTokenCache): ParsedCredential {
  const known = cache.parsed.get(raw);
  if (known) return known;
  const credential = parseServiceAccountKey(raw);
  const key = importPKCS8(credential.privateKey, "RS256").catch(() => {
    throw new SheetSourceError(CONFIG_ERROR);
  });
  key.catch(() => {}); // Observed here; the failure is rethrown to whoever awaits it.
  const parsed = { credential, key };
  cache.parsed.set(raw, parsed);
  return parsed;
}

/** Signs the token-exchange assertion: RS256, typ JWT, iss/scope/aud, iat = now, exp = iat + 3600. */
export async function signServiceAccountJwt(clientEmail: string, key: CryptoKey, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ scope: SHEETS_SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(clientEmail)
    .setAudience(GOOGLE_TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_LIFETIME_S)
    .sign(key);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function shortBody(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, ERROR_BODY_MAX);
}

async function exchangeToken(parsed: ParsedCredential, access: ServiceAccountAccess, cacheKey: string): Promise<string> {
  const now = (access.now ?? (() => new Date()))();
  const assertion = await signServiceAccountJwt(parsed.credential.clientEmail, await parsed.key, now);
  const timeoutMs = access.tokenTimeoutMs ?? TOKEN_TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const response = await (access.fetch ?? fetch)(access.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) throw new SheetSourceError(`Token exchange timed out after ${timeoutMs} ms`);
    throw new SheetSourceError(`Token exchange failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (status < 200 || status > 299) throw new SheetSourceError(`Token exchange failed: HTTP ${status} ${shortBody(text)}`.trim());
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new SheetSourceError("Token exchange returned invalid JSON");
  }
  if (typeof body?.access_token !== "string" || body.access_token === "") throw new SheetSourceError("Token exchange returned no access_token");
  const expiresInS = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : JWT_LIFETIME_S;
  access.tokens.tokens.set(cacheKey, { token: body.access_token, refreshAfterMs: now.getTime() + expiresInS * 1000 - TOKEN_REFRESH_MARGIN_MS });
  return body.access_token;
}

function tokenKey(access: ServiceAccountAccess, parsed: ParsedCredential): string {
  return `${access.tokenUrl}\u0000${parsed.credential.clientEmail}`;
}

/** An access token for the credential, from the cache until 60 s before expiry, else a fresh exchange. */
export async function getServiceAccountToken(rawCredential: string, access: ServiceAccountAccess): Promise<string> {
  const parsed = parsedCredential(rawCredential, access.tokens);
  const cacheKey = tokenKey(access, parsed);
  const now = (access.now ?? (() => new Date()))().getTime();
  const cached = access.tokens.tokens.get(cacheKey);
  if (cached && now < cached.refreshAfterMs) return cached.token;
  // Concurrent callers share one exchange.
  const pending = access.tokens.pending.get(cacheKey);
  if (pending) return pending;
  const exchange = exchangeToken(parsed, access, cacheKey).finally(() => access.tokens.pending.delete(cacheKey));
  access.tokens.pending.set(cacheKey, exchange);
  return exchange;
}

/** Turns values API rows into CSV: header width padding, null → empty, CSV quoting, rows joined with `\n`. */
export function valuesToCsv(values: readonly unknown[]): string {
  const rows = values.map((row) => (Array.isArray(row) ? row : []));
  const header = rows[0];
  if (!header || header.length === 0) throw new SheetSourceError("No data returned from the spreadsheet");
  const width = header.length;
  return rows
    .map((row) => {
      const cells: CsvValue[] = row.map((cell) =>
        cell === null || cell === undefined || typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean" ? cell : String(cell),
      );
      while (cells.length < width) cells.push("");
      return csvLine(cells);
    })
    .join("\n");
}

/** Reads `range` of the sheet through the values API with a service-account token and returns it as CSV. */
export async function fetchSheetValuesCsv(rawCredential: string, sheetId: string, range: string, access: ServiceAccountAccess): Promise<string> {
  const token = await getServiceAccountToken(rawCredential, access);
  const url = `${access.apiUrl.replace(/\/+$/, "")}/${encodeURIComponent(sheetId)}/values/${encodeURIComponent(range)}`;
  const timeoutMs = access.valuesTimeoutMs ?? VALUES_TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const response = await (access.fetch ?? fetch)(url, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await readBodyCapped(response, VALUES_MAX_BYTES);
  } catch (error) {
    if (isTimeout(error)) throw new SheetSourceError(`Sheets API request timed out after ${timeoutMs} ms`);
    throw new SheetSourceError(`Sheets API request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (status === 401) access.tokens.tokens.delete(tokenKey(access, parsedCredential(rawCredential, access.tokens)));
  if (status < 200 || status > 299) throw new SheetSourceError(`Sheets API request failed: HTTP ${status} ${shortBody(text)}`.trim());
  let body: { values?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new SheetSourceError("Sheets API returned invalid JSON");
  }
  if (!Array.isArray(body?.values) || body.values.length === 0) throw new SheetSourceError("No data returned from the spreadsheet");
  return valuesToCsv(body.values);
}
