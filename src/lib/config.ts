// Typed configuration, read once from the environment: the only module that reads process.env.
// Every variable is listed in VARIABLES with its type, default, secret flag and description;
// the README's environment table is checked against this list by a test.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { trustedProxyProblem } from "./client-ip.ts";

export type DataMode = "remote" | "local" | "test";
export type PackageKey = "spotlight-standard" | "spotlight-takeover" | "promoted-listing" | "addon-whatsapp" | "addon-newsletter";
export type NodeEnv = "production" | "development" | "test";
export type LogLevelSetting = "info" | "warn" | "error";

/** One documented environment variable. */
export interface VariableSpec {
  name: string;
  type: "string" | "integer" | "boolean" | "url" | "enum";
  default?: string;
  secret: boolean;
  description: string;
}

/** Every variable the service reads, in README order. */
export const VARIABLES: readonly VariableSpec[] = [
  { name: "NODE_ENV", type: "enum", default: "development", secret: false, description: "`production` enables secure cookies, JSON logs and the strict startup checks; `development` (or unset) gives readable logs; `test` is used by the suite" },
  { name: "DATA_MODE", type: "enum", default: "remote (development only)", secret: false, description: "Where events are read from: `remote` (Postgres event store, falling back to the newest backup, then the local CSV), `local` (CSV only), `test` (in-code fixtures). Required in production" },
  { name: "DATABASE_URL", type: "url", secret: true, description: "Postgres connection string; when unset the embedded PGlite database under DATA_DIR is used. Required in production" },
  { name: "POSTGRES_URL", type: "url", secret: true, description: "Alias of DATABASE_URL (DATABASE_URL wins when both are set)" },
  { name: "AUTH_SECRET", type: "string", secret: true, description: "Signing secret for user and admin tokens and key for the HMAC of rate-limit keys; at least 32 characters. Generated once and kept in DATA_DIR in development; required in production" },
  { name: "ADMIN_KEY", type: "string", secret: true, description: "Admin key for the console and admin API; when unset every admin endpoint answers 401" },
  { name: "CRON_SECRET", type: "string", secret: true, description: "Bearer secret for the /api/cron/* endpoints" },
  { name: "DEPLOY_REVALIDATE_SECRET", type: "string", secret: true, description: "Bearer secret for /api/revalidate/deploy" },
  { name: "PAYMENT_WEBHOOK_SECRET", type: "string", secret: true, description: "Signing secret of the payment webhook (Stripe-compatible `payment-signature`)" },
  { name: "PAYMENT_LINK_PACKAGES", type: "string", secret: false, description: "Optional JSON object mapping payment-link ids to package keys" },
  { name: "GEOCODING_API_KEY", type: "string", secret: true, description: "Google Geocoding API key; without it coordinates fall back to arrondissement centres" },
  { name: "GEOCODING_API_URL", type: "url", default: "https://maps.googleapis.com/maps/api/geocode/json", secret: false, description: "Geocoding endpoint (tests point it at a loopback fake)" },
  { name: "REMOTE_CSV_URL", type: "url", secret: false, description: "Public CSV export URL of the spreadsheet (import strategy 2)" },
  { name: "SHEET_ID", type: "string", secret: false, description: "Spreadsheet id or URL (import strategies 1 and 2)" },
  { name: "SHEET_RANGE", type: "string", default: "A:Z", secret: false, description: "Spreadsheet range to import" },
  { name: "SHEET_SERVICE_ACCOUNT_KEY", type: "string", secret: true, description: "Service-account credential JSON with client_email and private_key (import strategy 1)" },
  { name: "SHEETS_TOKEN_URL", type: "url", default: "https://oauth2.googleapis.com/token", secret: false, description: "OAuth token endpoint for the service account" },
  { name: "SHEETS_API_URL", type: "url", default: "https://sheets.googleapis.com/v4/spreadsheets", secret: false, description: "Sheets values API base; the client appends /<sheetId>/values/<range>" },
  { name: "NEXT_PUBLIC_SITE_URL", type: "url", default: "http://localhost:3000", secret: false, description: "Public address of the site: canonical links, share links, calendar UIDs, CSRF origin" },
  { name: "NEXT_PUBLIC_BASE_PATH", type: "string", default: "", secret: false, description: "Path prefix under which public links are built" },
  { name: "NEXT_PUBLIC_PARTNER_EMAIL", type: "string", default: "partners@<site host>", secret: false, description: "Contact address of the partnership team on /feature-event and /partner-success" },
  { name: "NEXT_PUBLIC_PAYMENT_LINK_SPOTLIGHT_STANDARD", type: "url", secret: false, description: "Payment link of the Spotlight Standard package (€80); without it the button opens an email" },
  { name: "NEXT_PUBLIC_PAYMENT_LINK_SPOTLIGHT_TAKEOVER", type: "url", secret: false, description: "Payment link of the Spotlight Takeover package (€150)" },
  { name: "NEXT_PUBLIC_PAYMENT_LINK_PROMOTED_LISTING", type: "url", secret: false, description: "Payment link of the Promoted Listing package (€40)" },
  { name: "NEXT_PUBLIC_PAYMENT_LINK_ADDON_WHATSAPP", type: "url", secret: false, description: "Payment link of the WhatsApp add-on (€50)" },
  { name: "NEXT_PUBLIC_PAYMENT_LINK_ADDON_NEWSLETTER", type: "url", secret: false, description: "Payment link of the Newsletter add-on (€75)" },
  { name: "PORT", type: "integer", default: "3000", secret: false, description: "HTTP port" },
  { name: "HOST", type: "string", default: "0.0.0.0", secret: false, description: "Interface to listen on" },
  { name: "DATA_DIR", type: "string", default: ".data", secret: false, description: "Folder for the embedded database and the generated development secret" },
  { name: "LOCAL_EVENTS_CSV", type: "string", default: "data/events.csv", secret: false, description: "Local event sheet: first-start seed and last fallback source" },
  { name: "SPOTLIGHT_SLOTS", type: "integer", default: "3", secret: false, description: "Concurrent spotlight placements" },
  { name: "LOG_LEVEL", type: "enum", default: "info", secret: false, description: "Lowest log level written: info, warn or error" },
  { name: "CRON_ENABLED", type: "boolean", default: "true", secret: false, description: "`false` disables the in-process schedule (the cron endpoints still work)" },
  { name: "TRUSTED_PROXIES", type: "string", default: "loopback,private", secret: false, description: "Comma-separated addresses or CIDR ranges (IPv4 or IPv6) of the proxies allowed to name the client in X-Forwarded-For / X-Real-IP; `loopback` and `private` name the loopback and private ranges, `none` trusts no peer. Any other peer's own socket address is its client IP" },
  { name: "TRACKING_LIMITER_FALLBACK", type: "enum", default: "none", secret: false, description: "What tracking does while the rate-limit store is unreachable: `none` records nothing, `local` keeps recording under each instance's own in-memory counts" },
  { name: "DEFAULT_LANGUAGE", type: "enum", default: "fr", secret: false, description: "Language of a visitor who chose none (no `?lang=`, no `lang` cookie, no French or English in Accept-Language): `fr` or `en`. The test helpers set `en`" },
  { name: "TRACKING_RETENTION_DAYS", type: "integer", default: "400", secret: false, description: "Days raw engagement and discovery rows are kept (1–3650); the daily retention job rolls older whole Paris days into the daily rollups, then deletes the rows" },
];

/** The parsed, validated configuration. */
export interface Config {
  nodeEnv: NodeEnv;
  isProduction: boolean;
  dataMode: DataMode;
  databaseUrl?: string;
  authSecret: string;
  /** True when AUTH_SECRET was generated for development rather than configured. */
  authSecretGenerated: boolean;
  adminKey?: string;
  cronSecret?: string;
  deployRevalidateSecret?: string;
  paymentWebhookSecret?: string;
  paymentLinkPackages: Record<string, string>;
  geocodingApiKey?: string;
  geocodingApiUrl: string;
  remoteCsvUrl?: string;
  sheetId?: string;
  sheetRange: string;
  sheetServiceAccountKey?: string;
  sheetsTokenUrl: string;
  sheetsApiUrl: string;
  siteUrl: string;
  basePath: string;
  partnerEmail: string;
  /** Payment links by package key (spotlight-standard, spotlight-takeover, promoted-listing, addon-whatsapp, addon-newsletter). */
  paymentLinks: Partial<Record<PackageKey, string>>;
  port: number;
  host: string;
  dataDir: string;
  localEventsCsv: string;
  spotlightSlots: number;
  logLevel: LogLevelSetting;
  cronEnabled: boolean;
  /** Peers allowed to name the client in X-Forwarded-For / X-Real-IP (entries of TRUSTED_PROXIES). */
  trustedProxies: string[];
  /** Tracking while the limiter store is down: record nothing, or limit on local counts. */
  trackingLimiterFallback: "none" | "local";
  /** Days raw tracking rows are kept before the retention job rolls them up and deletes them. */
  trackingRetentionDays: number;
  /** Language of a visitor who chose none (see docs/languages.md). */
  defaultLanguage: "fr" | "en";
}

/** Thrown when the environment is invalid; `problems` names every one of them. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join("\n- ")}`);
    this.name = "ConfigError";
  }
}

export const MIN_AUTH_SECRET_LENGTH = 32;
const AUTH_SECRET_FILE = "auth-secret";

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function defaultOf(name: string): string {
  return VARIABLES.find((v) => v.name === name)?.default ?? "";
}

/**
 * Parses the environment into a Config, collecting every problem before failing.
 * In development a missing AUTH_SECRET is generated once and kept in DATA_DIR.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const rawNodeEnv = text(env, "NODE_ENV") ?? "development";
  let nodeEnv: NodeEnv = "development";
  if (rawNodeEnv === "production" || rawNodeEnv === "development" || rawNodeEnv === "test") nodeEnv = rawNodeEnv;
  else problems.push(`NODE_ENV must be production, development or test (got "${rawNodeEnv}")`);
  const isProduction = nodeEnv === "production";

  const rawMode = text(env, "DATA_MODE");
  let dataMode: DataMode = "remote";
  if (rawMode === undefined) {
    if (isProduction) problems.push("DATA_MODE is required in production (remote, local or test)");
  } else if (rawMode === "remote" || rawMode === "local" || rawMode === "test") {
    dataMode = rawMode;
  } else {
    problems.push(`DATA_MODE must be remote, local or test (got "${rawMode}")`);
  }

  const databaseUrl = text(env, "DATABASE_URL") ?? text(env, "POSTGRES_URL");
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push("DATABASE_URL/POSTGRES_URL must be a postgres:// or postgresql:// connection string");
  }
  if (isProduction && !databaseUrl && dataMode !== "test") {
    problems.push("DATABASE_URL (or POSTGRES_URL) is required in production");
  }

  const dataDir = resolve(text(env, "DATA_DIR") ?? defaultOf("DATA_DIR"));

  const integer = (name: string, min: number, max: number): number => {
    const raw = text(env, name) ?? defaultOf(name);
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return Number(defaultOf(name));
    }
    return value;
  };
  const url = (name: string, required: boolean): string | undefined => {
    const raw = text(env, name) ?? (required ? defaultOf(name) : undefined);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
    } catch {
      problems.push(`${name} must be an http(s) URL`);
    }
    return raw;
  };

  const port = integer("PORT", 0, 65535);
  const spotlightSlots = integer("SPOTLIGHT_SLOTS", 1, 50);
  const trackingRetentionDays = integer("TRACKING_RETENTION_DAYS", 1, 3650);

  const rawLevel = text(env, "LOG_LEVEL") ?? "info";
  let logLevel: LogLevelSetting = "info";
  if (rawLevel === "info" || rawLevel === "warn" || rawLevel === "error") logLevel = rawLevel;
  else problems.push(`LOG_LEVEL must be info, warn or error (got "${rawLevel}")`);

  const rawCron = (text(env, "CRON_ENABLED") ?? "true").toLowerCase();
  if (!["true", "false", "1", "0", "yes", "no"].includes(rawCron)) problems.push(`CRON_ENABLED must be true or false (got "${rawCron}")`);
  const cronEnabled = ["true", "1", "yes"].includes(rawCron);

  const defaultLanguage = (text(env, "DEFAULT_LANGUAGE") ?? defaultOf("DEFAULT_LANGUAGE")).toLowerCase();
  if (defaultLanguage !== "fr" && defaultLanguage !== "en") problems.push(`DEFAULT_LANGUAGE must be fr or en (got "${defaultLanguage}")`);
  const rawFallback = (text(env, "TRACKING_LIMITER_FALLBACK") ?? defaultOf("TRACKING_LIMITER_FALLBACK")).toLowerCase();
  if (rawFallback !== "none" && rawFallback !== "local") problems.push(`TRACKING_LIMITER_FALLBACK must be none or local (got "${rawFallback}")`);
  const trackingLimiterFallback = rawFallback === "local" ? "local" : "none";

  const trustedProxies = (text(env, "TRUSTED_PROXIES") ?? defaultOf("TRUSTED_PROXIES")).split(",").map((entry) => entry.trim()).filter(Boolean);
  for (const entry of trustedProxies) {
    const problem = trustedProxyProblem(entry);
    if (problem) problems.push(`TRUSTED_PROXIES: ${problem}`);
  }

  let paymentLinkPackages: Record<string, string> = {};
  const rawPackages = text(env, "PAYMENT_LINK_PACKAGES");
  if (rawPackages) {
    try {
      const parsed = JSON.parse(rawPackages);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      paymentLinkPackages = Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "string")) as Record<string, string>;
    } catch {
      problems.push("PAYMENT_LINK_PACKAGES must be a JSON object of payment-link id to package key");
    }
  }

  const siteUrl = (url("NEXT_PUBLIC_SITE_URL", true) ?? defaultOf("NEXT_PUBLIC_SITE_URL")).replace(/\/+$/, "");
  let basePath = text(env, "NEXT_PUBLIC_BASE_PATH") ?? "";
  if (basePath && !basePath.startsWith("/")) basePath = `/${basePath}`;
  basePath = basePath.replace(/\/+$/, "");

  const paymentLinks: Partial<Record<PackageKey, string>> = {};
  for (const key of ["spotlight-standard", "spotlight-takeover", "promoted-listing", "addon-whatsapp", "addon-newsletter"] as const) {
    const link = url(`NEXT_PUBLIC_PAYMENT_LINK_${key.toUpperCase().replace(/-/g, "_")}`, false);
    if (link) paymentLinks[key] = link;
  }
  let siteHostname = "localhost";
  try {
    siteHostname = new URL(siteUrl).hostname;
  } catch {}
  const partnerEmail = text(env, "NEXT_PUBLIC_PARTNER_EMAIL") ?? `partners@${siteHostname}`;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(partnerEmail) && !partnerEmail.endsWith("@localhost")) problems.push("NEXT_PUBLIC_PARTNER_EMAIL must be an email address");

  let authSecret = text(env, "AUTH_SECRET");
  let authSecretGenerated = false;
  if (authSecret !== undefined && authSecret.length < MIN_AUTH_SECRET_LENGTH) {
    problems.push(`AUTH_SECRET must be at least ${MIN_AUTH_SECRET_LENGTH} characters`);
  } else if (authSecret === undefined) {
    if (isProduction) problems.push("AUTH_SECRET is required in production");
    else if (problems.length === 0) {
      authSecret = readOrCreateDevSecret(dataDir);
      authSecretGenerated = true;
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    nodeEnv,
    isProduction,
    dataMode,
    databaseUrl,
    authSecret: authSecret!,
    authSecretGenerated,
    adminKey: text(env, "ADMIN_KEY"),
    cronSecret: text(env, "CRON_SECRET"),
    deployRevalidateSecret: text(env, "DEPLOY_REVALIDATE_SECRET"),
    paymentWebhookSecret: text(env, "PAYMENT_WEBHOOK_SECRET"),
    paymentLinkPackages,
    geocodingApiKey: text(env, "GEOCODING_API_KEY"),
    geocodingApiUrl: url("GEOCODING_API_URL", true)!,
    remoteCsvUrl: url("REMOTE_CSV_URL", false),
    sheetId: text(env, "SHEET_ID"),
    sheetRange: text(env, "SHEET_RANGE") ?? defaultOf("SHEET_RANGE"),
    sheetServiceAccountKey: text(env, "SHEET_SERVICE_ACCOUNT_KEY"),
    sheetsTokenUrl: url("SHEETS_TOKEN_URL", true)!,
    sheetsApiUrl: url("SHEETS_API_URL", true)!.replace(/\/+$/, ""),
    siteUrl,
    basePath,
    partnerEmail,
    paymentLinks,
    port,
    host: text(env, "HOST") ?? defaultOf("HOST"),
    dataDir,
    localEventsCsv: resolve(text(env, "LOCAL_EVENTS_CSV") ?? defaultOf("LOCAL_EVENTS_CSV")),
    spotlightSlots,
    logLevel,
    cronEnabled,
    trustedProxies,
    trackingLimiterFallback,
    trackingRetentionDays,
    defaultLanguage: defaultLanguage === "en" ? "en" : "fr",
  };
}

// Development convenience: a newcomer runs `npm start` with no environment at all, and sessions
// survive restarts because the generated secret is kept beside the embedded database.
function readOrCreateDevSecret(dataDir: string): string {
  const file = join(dataDir, AUTH_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= MIN_AUTH_SECRET_LENGTH) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

/** The public origin of the site, used for canonical links and the CSRF check. */
export function siteOrigin(config: Pick<Config, "siteUrl">): string {
  return new URL(config.siteUrl).origin;
}

/** Absolute public link for a path (base path included). */
export function publicUrl(config: Pick<Config, "siteUrl" | "basePath">, path: string): string {
  return `${config.siteUrl}${config.basePath}${path.startsWith("/") ? path : `/${path}`}`;
}
