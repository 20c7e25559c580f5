// Spreadsheet import source (see docs/store-and-backups.md, "Spreadsheet import"): strategy order,
// public CSV export, status description.

import type { Logger } from "../logger.ts";
import { fetchRemoteText, REMOTE_MAX_BYTES, REMOTE_MAX_REDIRECTS } from "./remote-fetch.ts";
import { fetchSheetValuesCsv, parseServiceAccountKey, SheetSourceError, type SheetTokenCache } from "./service-account.ts";

export { SheetSourceError } from "./service-account.ts";

/** Default sheet range. */
export const DEFAULT_SHEET_RANGE = "A:Z";
/** Provider defaults; config and tests may point elsewhere. */
export const DEFAULT_SHEETS_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const DEFAULT_SHEETS_API_URL = "https://sheets.googleapis.com/v4/spreadsheets";
export const DEFAULT_SHEETS_EXPORT_BASE_URL = "https://docs.google.com/spreadsheets/d";
/** Public CSV timeout: 15 s. */
export const PUBLIC_CSV_TIMEOUT_MS = 15_000;
/** The message preview and import answer when no source is configured. */
export const SHEET_NOT_CONFIGURED_MESSAGE = "Spreadsheet source is not configured";

/** The two ways of reading the sheet, in the order they are tried. */
export type SheetStrategy = "service-account" | "public-csv";

/** Everything the spreadsheet client needs; built from config, never from the environment directly. */
export interface SheetSourceConfig {
  /** A bare spreadsheet id or any URL containing `/spreadsheets/d/<id>`. */
  sheetId?: string;
  /** Service-account JSON (`client_email`, `private_key`). */
  serviceAccountKey?: string;
  remoteCsvUrl?: string;
  range?: string;
  tokenUrl?: string;
  apiUrl?: string;
  exportBaseUrl?: string;
  log: Logger;
  fetch?: typeof fetch;
  /** Lets the public CSV fetch reach loopback/private hosts; true only in tests. */
  allowPrivateHosts?: boolean;
  now?: () => Date;
  /** Overrides of the default timeouts (tests). */
  timeoutsMs?: { token?: number; values?: number; csv?: number };
  /** The service account's parsed keys and tokens (deps.sheetTokens). */
  tokens: SheetTokenCache;
}

/** What describing the source needs: the settings, no token cache (it makes no call). */
export type SheetSourceSettings = Omit<SheetSourceConfig, "tokens">;

/** The fetched sheet as CSV text and the strategy that produced it. */
export interface SheetCsv {
  csv: string;
  strategy: SheetStrategy;
}

/** A non-secret summary of the configured source for status screens. */
export interface SheetSourceDescription {
  configured: boolean;
  /** Strategies that would be tried, in order. */
  strategies: SheetStrategy[];
  sheetId: string | null;
  range: string;
  serviceAccountEmail: string | null;
  /** Where the public CSV comes from: REMOTE_CSV_URL, or the export URL built from the sheet id. */
  publicCsvSource: "remote-csv-url" | "sheet-export" | null;
  /** Host of the public CSV URL (the full URL may embed a publishing key). */
  publicCsvHost: string | null;
  /** Configuration problems worth showing to an admin. */
  problems: string[];
}

const SHEET_ID_IN_URL = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/;
const BARE_SHEET_ID = /^[A-Za-z0-9_-]+$/;

/** The spreadsheet id from a bare id or a sheet URL; undefined when empty or unrecognisable. */
export function parseSheetId(input: string | undefined): string | undefined {
  const text = input?.trim() ?? "";
  const fromUrl = SHEET_ID_IN_URL.exec(text);
  if (fromUrl) return fromUrl[1];
  return BARE_SHEET_ID.test(text) ? text : undefined;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

function rangeOf(config: SheetSourceSettings): string {
  return present(config.range) ? config.range.trim() : DEFAULT_SHEET_RANGE;
}

/** The strategies the config enables, in order: service account first, then public CSV. */
function strategiesOf(config: SheetSourceSettings): SheetStrategy[] {
  const strategies: SheetStrategy[] = [];
  if (present(config.sheetId) && present(config.serviceAccountKey)) strategies.push("service-account");
  if (present(config.remoteCsvUrl) || present(config.sheetId)) strategies.push("public-csv");
  return strategies;
}

/** The public CSV URL: REMOTE_CSV_URL, else `<exportBase>/<sheetId>/export?format=csv&range=<range>`. */
export function publicCsvUrl(config: SheetSourceSettings): string | undefined {
  if (present(config.remoteCsvUrl)) return config.remoteCsvUrl.trim();
  const sheetId = parseSheetId(config.sheetId);
  if (!sheetId) return undefined;
  const base = (config.exportBaseUrl ?? DEFAULT_SHEETS_EXPORT_BASE_URL).replace(/\/+$/, "");
  return `${base}/${encodeURIComponent(sheetId)}/export?format=csv&range=${encodeURIComponent(rangeOf(config))}`;
}

function invalidSheetId(): SheetSourceError {
  return new SheetSourceError("Sheet id is not a spreadsheet id or a /spreadsheets/d/<id> URL");
}

async function fetchWithServiceAccount(config: SheetSourceConfig): Promise<string> {
  const sheetId = parseSheetId(config.sheetId);
  if (!sheetId) throw invalidSheetId();
  return fetchSheetValuesCsv(config.serviceAccountKey!, sheetId, rangeOf(config), {
    tokenUrl: config.tokenUrl ?? DEFAULT_SHEETS_TOKEN_URL,
    apiUrl: config.apiUrl ?? DEFAULT_SHEETS_API_URL,
    fetch: config.fetch,
    now: config.now,
    tokenTimeoutMs: config.timeoutsMs?.token,
    valuesTimeoutMs: config.timeoutsMs?.values,
    tokens: config.tokens,
  });
}

async function fetchPublicCsv(config: SheetSourceConfig): Promise<string> {
  const url = publicCsvUrl(config);
  if (!url) throw invalidSheetId();
  const response = await fetchRemoteText(url, {
    timeoutMs: config.timeoutsMs?.csv ?? PUBLIC_CSV_TIMEOUT_MS,
    maxBytes: REMOTE_MAX_BYTES,
    maxRedirects: REMOTE_MAX_REDIRECTS,
    allowPrivateHosts: config.allowPrivateHosts === true,
    fetch: config.fetch,
    headers: { accept: "text/csv, text/plain;q=0.9, */*;q=0.1" },
  });
  if (response.status < 200 || response.status > 299) throw new SheetSourceError(`CSV URL answered HTTP ${response.status}`);
  // A sheet that is not shared publicly answers with a sign-in page rather than an error status.
  if (response.contentType.toLowerCase().includes("text/html")) {
    throw new SheetSourceError("CSV URL returned an HTML page, not CSV (is the sheet shared publicly?)");
  }
  if (response.text.trim() === "") throw new SheetSourceError("CSV URL returned an empty body");
  const lines = response.text.split(/\r\n|\n|\r/).filter((line) => line.trim() !== "");
  if (lines.length < 2) throw new SheetSourceError("CSV has fewer than 2 lines (a header and at least one row are needed)");
  return response.text;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/**
 * Reads the sheet as CSV, trying the service account first and the public CSV second.
 * Throws SheetSourceError "Spreadsheet source is not configured", or one message joining every strategy's failure.
 */
export async function fetchSheetCsv(config: SheetSourceConfig): Promise<SheetCsv> {
  const strategies = strategiesOf(config);
  if (strategies.length === 0) throw new SheetSourceError(SHEET_NOT_CONFIGURED_MESSAGE);
  const failures: string[] = [];
  for (const strategy of strategies) {
    try {
      const csv = strategy === "service-account" ? await fetchWithServiceAccount(config) : await fetchPublicCsv(config);
      config.log.info("sheets", "Spreadsheet fetched", { strategy, bytes: new TextEncoder().encode(csv).byteLength });
      return { csv, strategy };
    } catch (error) {
      const message = messageOf(error);
      config.log.warn("sheets", "Spreadsheet strategy failed", { strategy, reason: message });
      failures.push(`${strategy}: ${message}`);
    }
  }
  throw new SheetSourceError(`All spreadsheet strategies failed: ${failures.join("; ")}`);
}

/** Describes the configured source without secrets or network calls (status screens, startup warning). */
export function describeSheetSource(config: SheetSourceSettings): SheetSourceDescription {
  const problems: string[] = [];
  const sheetId = parseSheetId(config.sheetId) ?? null;
  if (present(config.sheetId) && sheetId === null) problems.push(invalidSheetId().message);

  let serviceAccountEmail: string | null = null;
  if (present(config.serviceAccountKey)) {
    try {
      serviceAccountEmail = parseServiceAccountKey(config.serviceAccountKey).clientEmail;
    } catch (error) {
      problems.push(messageOf(error));
    }
    if (!present(config.sheetId)) problems.push("A service-account key is set without a sheet id; it is not used");
  }

  let publicCsvHost: string | null = null;
  const csvUrl = publicCsvUrl(config);
  if (csvUrl) {
    try {
      const url = new URL(csvUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") problems.push("The CSV URL must use http or https");
      publicCsvHost = url.host;
    } catch {
      problems.push("The CSV URL is not a valid URL");
    }
  }

  const strategies = strategiesOf(config);
  if (strategies.length === 0) problems.push(SHEET_NOT_CONFIGURED_MESSAGE);
  return {
    configured: strategies.length > 0,
    strategies,
    sheetId,
    range: rangeOf(config),
    serviceAccountEmail,
    publicCsvSource: present(config.remoteCsvUrl) ? "remote-csv-url" : sheetId ? "sheet-export" : null,
    publicCsvHost,
    problems,
  };
}
