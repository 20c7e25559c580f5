// Structured logging: JSON lines in production and test, readable lines in development.
// Fixed field order (level, scope, message, context, error, ts) and, in development only, the
// 1200 ms dedupe of identical info lines (see docs/operations.md, "Logging"). Database errors are
// reduced to their code and table here, for every caller.

import { isDatabaseError, safeDbError } from "./db/errors.ts";

export type LogLevel = "info" | "warn" | "error";
export type LogContext = Record<string, unknown>;

/** What every module receives as `log`. */
export interface Logger {
  info(scope: string, message: string, context?: LogContext): void;
  warn(scope: string, message: string, context?: LogContext, error?: unknown): void;
  error(scope: string, message: string, context?: LogContext, error?: unknown): void;
}

export interface LoggerOptions {
  /** "development" gives readable lines and info dedupe; anything else gives JSON lines. */
  mode: "development" | "json";
  /** Lowest level written. */
  minLevel?: LogLevel;
  /** Where lines go; defaults to stdout for info and stderr for warn/error. */
  write?: (level: LogLevel, line: string) => void;
  now?: () => number;
}

const LEVEL_RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };
const ICONS: Record<LogLevel, string> = { info: "·", warn: "⚠", error: "✗" };
const DEDUPE_MS = 1200;
const DEDUPE_MAX_KEYS = 500;

function defaultWrite(level: LogLevel, line: string): void {
  if (level === "info") process.stdout.write(line + "\n");
  else process.stderr.write(line + "\n");
}

/**
 * Turns anything thrown into the logged `{message, stack}` shape (a non-Error gives `{message}`).
 * A database error is reduced to its code and table (`safeDbError`): the SQL, its parameters and
 * the driver's text never reach a log line; its stack keeps only the call frames.
 */
export function serializeError(error: unknown): { message: string; stack?: string; code?: string; table?: string } {
  if (isDatabaseError(error)) {
    const safe = safeDbError(error);
    const frames = error instanceof Error && typeof error.stack === "string" ? error.stack.split("\n").filter((line) => /^\s+at /.test(line)) : [];
    return {
      message: safe.message,
      ...(safe.code ? { code: safe.code } : {}),
      ...(safe.table ? { table: safe.table } : {}),
      ...(frames.length > 0 ? { stack: [safe.message, ...frames].join("\n") } : {}),
    };
  }
  if (error instanceof Error) {
    const stack = typeof error.stack === "string" && QUERY_TEXT.test(error.stack) ? error.stack.split("\n").filter((line) => /^\s+at /.test(line)).join("\n") : error.stack;
    return { message: scrubText(error.message), stack };
  }
  if (typeof error === "string") return { message: scrubText(error) };
  try {
    return { message: JSON.stringify(scrubContext(error)) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
}

// Drizzle's wrapper text: "Failed query: <sql>\nparams: <values>".
const QUERY_TEXT = /Failed query:|\bparams:/;

function scrubText(text: string): string {
  return QUERY_TEXT.test(text) ? "[database error text removed]" : text;
}

/** Context values as logged: errors serialised safely, database error text removed, at any depth up to 4. */
function scrubContext(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value instanceof Error) return serializeError(value);
  if (depth >= 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrubContext(item, depth + 1));
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubContext(item, depth + 1);
  return out;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return '"[unserialisable]"';
  }
}

/** Builds a logger. One per process, created in deps. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? defaultWrite;
  const now = options.now ?? Date.now;
  const minRank = LEVEL_RANK[options.minLevel ?? "info"];
  const lastSeen = new Map<string, number>();

  function suppressed(scope: string, message: string, context?: LogContext): boolean {
    if (options.mode !== "development") return false;
    const key = `${scope}\u0000${message}\u0000${context === undefined ? "" : safeJson(context)}`;
    const t = now();
    const previous = lastSeen.get(key);
    // The last-seen time refreshes on every attempt, suppressed or not.
    lastSeen.delete(key);
    lastSeen.set(key, t);
    if (lastSeen.size > DEDUPE_MAX_KEYS) {
      const oldest = lastSeen.keys().next().value;
      if (oldest !== undefined) lastSeen.delete(oldest);
    }
    return previous !== undefined && t - previous < DEDUPE_MS;
  }

  function emit(level: LogLevel, scope: string, message: string, rawContext?: LogContext, error?: unknown, hasError = false): void {
    if (LEVEL_RANK[level] < minRank) return;
    const context = rawContext === undefined ? undefined : (scrubContext(rawContext) as LogContext);
    if (level === "info" && suppressed(scope, message, context)) return;
    if (options.mode === "development") {
      let line = `${ICONS[level]} [${scope}] ${message}`;
      if (context !== undefined) line += ` ${safeJson(context)}`;
      if (hasError) line += `\n  → ${serializeError(error).message}`;
      write(level, line);
      return;
    }
    const record: Record<string, unknown> = { level, scope, message };
    if (context !== undefined) record.context = context;
    if (hasError) record.error = serializeError(error);
    record.ts = new Date(now()).toISOString();
    write(level, safeJson(record));
  }

  return {
    info: (scope, message, context) => emit("info", scope, message, context),
    warn: (scope, message, context, ...rest) => emit("warn", scope, message, context, rest[0], rest.length > 0),
    error: (scope, message, context, ...rest) => emit("error", scope, message, context, rest[0], rest.length > 0),
  };
}

/** A logger that keeps lines in memory, for tests. */
export function createMemoryLogger(mode: LoggerOptions["mode"] = "json"): Logger & { lines: { level: LogLevel; line: string }[] } {
  const lines: { level: LogLevel; line: string }[] = [];
  const logger = createLogger({ mode, write: (level, line) => lines.push({ level, line }) });
  return Object.assign(logger, { lines });
}
