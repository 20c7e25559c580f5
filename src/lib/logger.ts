// Structured logging: JSON lines in production and test, readable lines in development.
// Fixed field order (level, scope, message, context, error, ts) and, in development only, the
// 1200 ms dedupe of identical info lines (see docs/operations.md, "Logging").

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

/** Turns anything thrown into the logged `{message, stack}` shape (a non-Error gives `{message}`). */
export function serializeError(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  if (typeof error === "string") return { message: error };
  try {
    return { message: JSON.stringify(error) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
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

  function emit(level: LogLevel, scope: string, message: string, context?: LogContext, error?: unknown, hasError = false): void {
    if (LEVEL_RANK[level] < minRank) return;
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
