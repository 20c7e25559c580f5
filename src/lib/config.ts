// Typed configuration, read once from the environment: the only module that reads process.env.
// FIELDS below is the one description of every variable: its name, how its text is parsed and
// checked, its default, whether it is a secret, and the sentence the README's environment table
// shows. The Config type, the parser and the README rows (VARIABLES) are all derived from it; a
// test checks the README table against VARIABLES.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { trustedProxyProblem } from "./client-ip.ts";
import { adminKeyWeakness, MIN_ADMIN_KEY_BITS } from "./key-strength.ts";

export const DATA_MODES = ["remote", "local", "test"] as const;
export const NODE_ENVS = ["production", "development", "test"] as const;
export const LOG_LEVELS = ["info", "warn", "error"] as const;
export const PACKAGE_KEYS = ["spotlight-standard", "spotlight-takeover", "promoted-listing", "addon-whatsapp", "addon-newsletter"] as const;
export type DataMode = (typeof DATA_MODES)[number];
export type NodeEnv = (typeof NODE_ENVS)[number];
export type LogLevelSetting = (typeof LOG_LEVELS)[number];
export type PackageKey = (typeof PACKAGE_KEYS)[number];

/** One documented environment variable: a row of the README's environment table. */
export interface VariableSpec {
  name: string;
  type: "string" | "integer" | "boolean" | "url" | "enum" | "list" | "json" | "path";
  /** The Default column: the value used when the variable is unset, or how it is chosen; none shows "–". */
  default?: string;
  secret: boolean;
  description: string;
}

type Env = Record<string, string | undefined>;

/** Why a variable's text was refused: one or more sentences, each naming the variable. */
class Invalid extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

/** How a variable's text becomes a value. `parse` throws Invalid with sentences naming `name`. */
interface Kind<T> {
  type: VariableSpec["type"];
  parse(raw: string, name: string): T;
}

/** A kind whose parsed value is then reshaped (trailing slashes cut, a path made absolute). */
function mapped<T, U>(kind: Kind<T>, reshape: (value: T) => U): Kind<U> {
  return { type: kind.type, parse: (raw, name) => reshape(kind.parse(raw, name)) };
}

/** "a", "a or b", "a, b or c". */
function either(values: readonly string[]): string {
  return values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

const text: Kind<string> = { type: "string", parse: (raw) => raw };

const path: Kind<string> = { type: "path", parse: (raw) => resolve(raw) };

function oneOf<const V extends string>(values: readonly V[], options: { anyCase?: boolean } = {}): Kind<V> {
  return {
    type: "enum",
    parse(raw, name) {
      const value = options.anyCase ? raw.toLowerCase() : raw;
      if (!(values as readonly string[]).includes(value)) throw new Invalid([`${name} must be ${either(values)} (got "${value}")`]);
      return value as V;
    },
  };
}

function integer(min: number, max: number): Kind<number> {
  return {
    type: "integer",
    parse(raw, name) {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < min || value > max) throw new Invalid([`${name} must be an integer from ${min} to ${max} (got "${raw}")`]);
      return value;
    },
  };
}

const TRUE_WORDS = ["true", "1", "yes"];
const FALSE_WORDS = ["false", "0", "no"];
const boolean: Kind<boolean> = {
  type: "boolean",
  parse(raw, name) {
    const word = raw.toLowerCase();
    if (![...TRUE_WORDS, ...FALSE_WORDS].includes(word)) throw new Invalid([`${name} must be true or false (got "${word}")`]);
    return TRUE_WORDS.includes(word);
  },
};

const httpUrl: Kind<string> = {
  type: "url",
  parse(raw, name) {
    let scheme = "";
    try {
      scheme = new URL(raw).protocol;
    } catch {}
    if (scheme !== "http:" && scheme !== "https:") throw new Invalid([`${name} must be an http(s) URL`]);
    return raw;
  },
};

const postgresUrl: Kind<string> = {
  type: "url",
  parse(raw, name) {
    if (!/^postgres(ql)?:\/\//i.test(raw)) throw new Invalid([`${name} must be a postgres:// or postgresql:// connection string`]);
    return raw;
  },
};

/** An SMTP server: smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps:// (TLS from the start). */
const smtpUrl: Kind<string> = {
  type: "url",
  parse(raw, name) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") throw new Invalid([`${name} must be an smtp:// or smtps:// URL with a host`]);
    return raw;
  },
};

/** Comma-separated entries; `problemOf` names what is wrong with one entry. */
function list(problemOf: (entry: string) => string | undefined): Kind<string[]> {
  return {
    type: "list",
    parse(raw, name) {
      const entries = raw.split(",").map((entry) => entry.trim()).filter(Boolean);
      const problems = entries.flatMap((entry) => {
        const problem = problemOf(entry);
        return problem ? [`${name}: ${problem}`] : [];
      });
      if (problems.length > 0) throw new Invalid(problems);
      return entries;
    },
  };
}

/** A JSON object of text values (other values are dropped). */
function jsonTextMap(meaning: string): Kind<Record<string, string>> {
  return {
    type: "json",
    parse(raw, name) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {}
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Invalid([`${name} must be a JSON object of ${meaning}`]);
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "string")) as Record<string, string>;
    },
  };
}

/** One Config field: the variables it reads (README rows) and how it reads them. */
interface Field<T> {
  variables: VariableSpec[];
  /** The value; problems are pushed (each naming its variable) and a placeholder returned. */
  read(env: Env, problems: string[]): T;
}

/** An environment value, trimmed; empty counts as unset. */
function valueOf(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

interface VariableOptions<T> {
  name: string;
  kind: Kind<T>;
  secret?: boolean;
  description: string;
  /** Another variable read when this one is unset (its README row says so). */
  alias?: string;
  /** The Default column when it is not the default text itself. */
  shownDefault?: string;
  /** The text used when the variable is unset, worked out from the rest of the environment. */
  defaultFrom?: (env: Env) => string;
}

/** A field read from one variable (or its alias): with a default it always has a value. */
function variable<T>(options: VariableOptions<T> & { default: string }): Field<T>;
function variable<T>(options: VariableOptions<T> & { default?: undefined }): Field<T | undefined>;
function variable<T>(options: VariableOptions<T> & { default?: string }): Field<T | undefined> {
  const secret = options.secret ?? false;
  const label = options.alias ? `${options.name}/${options.alias}` : options.name;
  const variables: VariableSpec[] = [{ name: options.name, type: options.kind.type, default: options.shownDefault ?? (options.default || undefined), secret, description: options.description }];
  if (options.alias) variables.push({ name: options.alias, type: options.kind.type, secret, description: `Alias of ${options.name} (${options.name} wins when both are set)` });
  return {
    variables,
    read(env, problems) {
      const raw = valueOf(env, options.name) ?? (options.alias ? valueOf(env, options.alias) : undefined) ?? options.defaultFrom?.(env) ?? options.default;
      if (raw === undefined) return undefined;
      try {
        return options.kind.parse(raw, label);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        problems.push(...error.problems);
        // The default stands in, so later checks see a usable value; the problem stops the start anyway.
        return options.default === undefined ? undefined : options.kind.parse(options.default, label);
      }
    },
  };
}

/** Several variables gathered into one record: the payment link of each package. */
function group<K extends string, T>(keys: readonly K[], fieldOf: (key: K) => Field<T | undefined>): Field<Partial<Record<K, T>>> {
  const fields = keys.map((key) => [key, fieldOf(key)] as const);
  return {
    variables: fields.flatMap(([, field]) => field.variables),
    read(env, problems) {
      const record: Partial<Record<K, T>> = {};
      for (const [key, field] of fields) {
        const value = field.read(env, problems);
        if (value !== undefined) record[key] = value;
      }
      return record;
    },
  };
}

const trailingSlashes = (url: string) => url.replace(/\/+$/, "");

/** "/base" from "base", "/base/" or "/base"; "" stays "". */
function basePathOf(raw: string): string {
  return (raw.startsWith("/") ? raw : `/${raw}`).replace(/\/+$/, "");
}

const DEFAULT_SITE_URL = "http://localhost:3000";

/** The host of NEXT_PUBLIC_SITE_URL (localhost when it is unusable: its own problem is reported). */
function siteHostname(env: Env): string {
  try {
    return new URL(valueOf(env, "NEXT_PUBLIC_SITE_URL") ?? DEFAULT_SITE_URL).hostname;
  } catch {
    return "localhost";
  }
}

const email: Kind<string> = {
  type: "string",
  parse(raw, name) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw) && !raw.endsWith("@localhost")) throw new Invalid([`${name} must be an email address`]);
    return raw;
  },
};

export const MIN_AUTH_SECRET_LENGTH = 32;

const authSecret: Kind<string> = {
  type: "string",
  parse(raw, name) {
    if (raw.length < MIN_AUTH_SECRET_LENGTH) throw new Invalid([`${name} must be at least ${MIN_AUTH_SECRET_LENGTH} characters`]);
    return raw;
  },
};

const PAYMENT_LINK_LABELS: Record<PackageKey, string> = {
  "spotlight-standard": "Payment link of the Spotlight Standard package (€80); without it the button opens an email",
  "spotlight-takeover": "Payment link of the Spotlight Takeover package (€150)",
  "promoted-listing": "Payment link of the Promoted Listing package (€40)",
  "addon-whatsapp": "Payment link of the WhatsApp add-on (€50)",
  "addon-newsletter": "Payment link of the Newsletter add-on (€75)",
};

/** Every field of the configuration and the variables it reads, in README order. */
const FIELDS = {
  nodeEnv: variable({ name: "NODE_ENV", kind: oneOf(NODE_ENVS), default: "development", description: "`production` enables secure cookies, JSON logs and the strict startup checks; `development` (or unset) gives readable logs; `test` is used by the suite" }),
  dataMode: variable({ name: "DATA_MODE", kind: oneOf(DATA_MODES), default: "remote", shownDefault: "remote (development only)", description: "Where events are read from: `remote` (Postgres event store, falling back to the newest backup, then the local CSV), `local` (CSV only), `test` (in-code fixtures). Required in production" }),
  databaseUrl: variable({ name: "DATABASE_URL", alias: "POSTGRES_URL", kind: postgresUrl, secret: true, description: "Postgres connection string; when unset the embedded PGlite database under DATA_DIR is used. Required in production" }),
  authSecret: variable({ name: "AUTH_SECRET", kind: authSecret, secret: true, description: "Signing secret for user and admin tokens and key for the HMAC of rate-limit keys; at least 32 characters. Generated once and kept in DATA_DIR in development; required in production" }),
  adminKey: variable({ name: "ADMIN_KEY", kind: text, secret: true, description: `Admin key for the console and admin API; when unset every admin endpoint answers 401. In production it must hold at least ${MIN_ADMIN_KEY_BITS} bits of entropy by the service's estimate (no runs, repeats or short keys: \`openssl rand -hex 32\`)` }),
  cronSecret: variable({ name: "CRON_SECRET", kind: text, secret: true, description: "Bearer secret for the /api/cron/* endpoints" }),
  deployRevalidateSecret: variable({ name: "DEPLOY_REVALIDATE_SECRET", kind: text, secret: true, description: "Bearer secret for /api/revalidate/deploy" }),
  paymentWebhookSecret: variable({ name: "PAYMENT_WEBHOOK_SECRET", kind: text, secret: true, description: "Signing secret of the payment webhook (Stripe-compatible `payment-signature`)" }),
  paymentLinkPackages: variable({ name: "PAYMENT_LINK_PACKAGES", kind: jsonTextMap("payment-link id to package key"), default: "{}", description: "Optional JSON object mapping payment-link ids to package keys" }),
  geocodingApiKey: variable({ name: "GEOCODING_API_KEY", kind: text, secret: true, description: "Google Geocoding API key; without it coordinates fall back to arrondissement centres" }),
  geocodingApiUrl: variable({ name: "GEOCODING_API_URL", kind: httpUrl, default: "https://maps.googleapis.com/maps/api/geocode/json", description: "Geocoding endpoint (tests point it at a loopback fake)" }),
  remoteCsvUrl: variable({ name: "REMOTE_CSV_URL", kind: httpUrl, description: "Public CSV export URL of the spreadsheet (import strategy 2)" }),
  sheetId: variable({ name: "SHEET_ID", kind: text, description: "Spreadsheet id or URL (import strategies 1 and 2)" }),
  sheetRange: variable({ name: "SHEET_RANGE", kind: text, default: "A:Z", description: "Spreadsheet range to import" }),
  sheetServiceAccountKey: variable({ name: "SHEET_SERVICE_ACCOUNT_KEY", kind: text, secret: true, description: "Service-account credential JSON with client_email and private_key (import strategy 1)" }),
  sheetsTokenUrl: variable({ name: "SHEETS_TOKEN_URL", kind: httpUrl, default: "https://oauth2.googleapis.com/token", description: "OAuth token endpoint for the service account" }),
  sheetsApiUrl: variable({ name: "SHEETS_API_URL", kind: mapped(httpUrl, trailingSlashes), default: "https://sheets.googleapis.com/v4/spreadsheets", description: "Sheets values API base; the client appends /<sheetId>/values/<range>" }),
  siteUrl: variable({ name: "NEXT_PUBLIC_SITE_URL", kind: mapped(httpUrl, trailingSlashes), default: DEFAULT_SITE_URL, description: "Public address of the site: canonical links, share links, calendar UIDs, CSRF origin" }),
  basePath: variable({ name: "NEXT_PUBLIC_BASE_PATH", kind: mapped(text, basePathOf), default: "", description: "Path prefix the whole site is served under (`/fete`: pages, API, static files, the service worker; see docs/operations.md, \"Base path\")" }),
  partnerEmail: variable({ name: "NEXT_PUBLIC_PARTNER_EMAIL", kind: email, default: "partners@localhost", shownDefault: "partners@<site host>", defaultFrom: (env) => `partners@${siteHostname(env)}`, description: "Contact address of the partnership team on /feature-event and /partner-success" }),
  paymentLinks: group(PACKAGE_KEYS, (key) => variable({ name: `NEXT_PUBLIC_PAYMENT_LINK_${key.toUpperCase().replace(/-/g, "_")}`, kind: httpUrl, description: PAYMENT_LINK_LABELS[key] })),
  port: variable({ name: "PORT", kind: integer(0, 65535), default: "3000", description: "HTTP port" }),
  host: variable({ name: "HOST", kind: text, default: "0.0.0.0", description: "Interface to listen on" }),
  dataDir: variable({ name: "DATA_DIR", kind: path, default: ".data", description: "Folder for the embedded database and the generated development secret" }),
  localEventsCsv: variable({ name: "LOCAL_EVENTS_CSV", kind: path, default: "data/events.csv", description: "Local event sheet: first-start seed and last fallback source" }),
  spotlightSlots: variable({ name: "SPOTLIGHT_SLOTS", kind: integer(1, 50), default: "3", description: "Concurrent spotlight placements" }),
  logLevel: variable({ name: "LOG_LEVEL", kind: oneOf(LOG_LEVELS), default: "info", description: "Lowest log level written: info, warn or error" }),
  cronEnabled: variable({ name: "CRON_ENABLED", kind: boolean, default: "true", description: "`false` disables the in-process schedule (the cron endpoints still work)" }),
  trustedProxies: variable({ name: "TRUSTED_PROXIES", kind: list(trustedProxyProblem), default: "loopback,private", shownDefault: "loopback,private (development only)", description: "Comma-separated addresses or CIDR ranges (IPv4 or IPv6) of the proxies allowed to name the client in X-Forwarded-For / X-Real-IP; `loopback` and `private` name the loopback and private ranges, `none` trusts no peer. X-Forwarded-For is read from the right past these proxies; any other peer's own socket address is its client IP. Required in production (`none` when clients connect directly; see docs/operations.md, \"Behind a proxy\")" }),
  trackingLimiterFallback: variable({ name: "TRACKING_LIMITER_FALLBACK", kind: oneOf(["none", "local"], { anyCase: true }), default: "none", description: "What tracking does while the rate-limit store is unreachable: `none` records nothing, `local` keeps recording under each instance's own in-memory counts" }),
  defaultLanguage: variable({ name: "DEFAULT_LANGUAGE", kind: oneOf(["fr", "en"], { anyCase: true }), default: "fr", description: "Language served at the site's root (`/`); the other one lives under `/<language>/` (docs/languages.md): `fr` or `en`. The test helpers set `en`" }),
  smtpUrl: variable({ name: "SMTP_URL", kind: smtpUrl, secret: true, description: "SMTP server the outbox sends host and partner email through (`smtp://user:pass@host:587`, `smtps://…:465`); without it messages stay queued in the outbox and the console shows them" }),
  mailReplyTo: variable({ name: "MAIL_REPLY_TO", kind: email, description: "Reply-To address of every email the outbox sends (checked as an email address at start); when unset, replies go to `NEXT_PUBLIC_PARTNER_EMAIL`" }),
  teamEmail: variable({ name: "TEAM_EMAIL", kind: email, description: "Address of the night team: a visitor's \"cancelled\" report and a host's cancellation are emailed there through the outbox, with a link to the console's reports card; when unset no alert is sent" }),
  trackingRetentionDays: variable({ name: "TRACKING_RETENTION_DAYS", kind: integer(1, 3650), default: "400", description: "Days raw engagement and discovery rows, and the console's activity timeline, are kept (1–3650); the daily retention task deletes older whole Paris days (the insights rollups keep their figures)" }),
  calendarReminderMinutes: variable({ name: "CALENDAR_REMINDER_MINUTES", kind: integer(0, 1440), default: "30", description: "Minutes before an event's start the reminder (VALARM) of a single event's calendar file and of the My night file rings (0–1440); `0` writes no reminder. The subscribable /calendar.ics feeds never carry one" }),
};

type Fields = typeof FIELDS;
/** One value per field, typed by its kind: optional exactly when the field has no default. */
type FieldValues = { [K in keyof Fields]: Fields[K] extends Field<infer T> ? T : never };

/** Every variable the service reads, in README order (derived from FIELDS). */
export const VARIABLES: readonly VariableSpec[] = Object.values(FIELDS).flatMap((field: Field<unknown>) => field.variables);

/**
 * The parsed, validated configuration: FIELDS' values, with AUTH_SECRET always set (configured, or
 * generated in development) and two facts worked out from them.
 */
export type Config = Omit<FieldValues, "authSecret"> & {
  authSecret: string;
  /** True when AUTH_SECRET was generated for development rather than configured. */
  authSecretGenerated: boolean;
  isProduction: boolean;
};

/** Thrown when the environment is invalid; `problems` names every one of them. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join("\n- ")}`);
    this.name = "ConfigError";
  }
}

const AUTH_SECRET_FILE = "auth-secret";

function readFields(env: Env, problems: string[]): FieldValues {
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(FIELDS) as [keyof Fields, Field<unknown>][]) values[key] = field.read(env, problems);
  return values as FieldValues;
}

/**
 * Parses the environment into a Config, collecting every problem before failing. Each variable is
 * checked on its own (FIELDS); then the rules that tie variables together: production requires
 * DATA_MODE, a database, AUTH_SECRET and TRUSTED_PROXIES and an ADMIN_KEY hard enough to guess (key-strength.ts), and in development a missing AUTH_SECRET is generated
 * once and kept in DATA_DIR.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const values = readFields(env, problems);
  const isProduction = values.nodeEnv === "production";
  if (isProduction) {
    if (valueOf(env, "DATA_MODE") === undefined) problems.push(`DATA_MODE is required in production (${either(DATA_MODES)})`);
    const databaseSet = valueOf(env, "DATABASE_URL") ?? valueOf(env, "POSTGRES_URL");
    if (!databaseSet && values.dataMode !== "test") problems.push("DATABASE_URL (or POSTGRES_URL) is required in production");
    if (valueOf(env, "AUTH_SECRET") === undefined) problems.push("AUTH_SECRET is required in production");
    // The default trusts every private address, right for a laptop but wrong behind a NAT or an L4
    // balancer that shows clients from a private address: each would then name itself.
    if (valueOf(env, "TRUSTED_PROXIES") === undefined) problems.push("TRUSTED_PROXIES is required in production: the addresses of the proxies in front of the service, or `none` when clients connect directly (docs/operations.md, \"Behind a proxy\")");
    const adminKey = valueOf(env, "ADMIN_KEY");
    const weakness = adminKey === undefined ? undefined : adminKeyWeakness("ADMIN_KEY", adminKey);
    if (weakness) problems.push(weakness);
  }
  let authSecret = values.authSecret;
  let authSecretGenerated = false;
  if (authSecret === undefined && valueOf(env, "AUTH_SECRET") === undefined && !isProduction && problems.length === 0) {
    authSecret = readOrCreateDevSecret(values.dataDir);
    authSecretGenerated = true;
  }
  if (problems.length > 0 || authSecret === undefined) throw new ConfigError(problems);
  return { ...values, siteUrl: developmentSiteUrl(env, values), authSecret, authSecretGenerated, isProduction };
}

/** In development without NEXT_PUBLIC_SITE_URL, links follow PORT (a second instance on :3001 links to itself, not to :3000). */
function developmentSiteUrl(env: Env, values: FieldValues): string {
  if (values.nodeEnv !== "development" || valueOf(env, "NEXT_PUBLIC_SITE_URL") !== undefined || values.port === 0) return values.siteUrl;
  return `http://localhost:${values.port}`;
}

/** The address to open on this machine once the server listens (a wildcard host reads as localhost). */
export function localUrl(config: Pick<Config, "host" | "basePath">, port: number): string {
  const wildcard = config.host === "0.0.0.0" || config.host === "::" || config.host === "";
  const host = wildcard ? "localhost" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${port}${config.basePath}/`;
}

/**
 * The line a start logs once it listens: the address to open, the data mode, the database it
 * actually uses (the embedded one names its folder), whether the console is enabled (it needs
 * ADMIN_KEY) and how addresses are geocoded.
 */
export function readyLine(config: Config, port: number, engine: "postgres" | "pglite"): string {
  const db = engine === "postgres" ? "postgres" : config.dataMode === "test" ? "embedded (in memory)" : `embedded (${config.dataDir})`;
  const console = config.adminKey ? "on at /admin" : "off (set ADMIN_KEY to enable /admin)";
  const geocoding = config.geocodingApiKey ? "api" : "arrondissement-fallback";
  return `[finder] Ready at ${localUrl(config, port)} | data=${config.dataMode} | db=${db} | console=${console} | geocoding=${geocoding}`;
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
