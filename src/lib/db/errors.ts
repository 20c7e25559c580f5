// Database error triage for background writers: transient (worth retrying: connection lost,
// server restarting, deadlock) or permanent (the data itself is refused), and a log-safe summary.

/** Error codes of postgres.js and Node sockets that mean "the connection, not the data". */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** SQLSTATEs worth retrying: serialization failure, deadlock, lock timeout, cancel, shutdown, startup. */
const TRANSIENT_SQLSTATES = new Set(["40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "58000", "58030"]);

/** The driver error behind a Drizzle wrapper (DrizzleQueryError keeps it as `cause`). */
function rootOf(error: unknown): { code?: unknown; message?: unknown } {
  let current = error as { cause?: unknown; code?: unknown } | undefined;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    if (current.code !== undefined || !current.cause) return current as { code?: unknown; message?: unknown };
    current = current.cause as typeof current;
  }
  return (current ?? {}) as { code?: unknown; message?: unknown };
}

/**
 * True when retrying the same statement later may succeed. Errors without a code (a closed pool,
 * an unknown driver failure) count as transient: the data is kept rather than dropped.
 */
export function isTransientDbError(error: unknown): boolean {
  const code = rootOf(error).code;
  if (typeof code !== "string") return true;
  if (CONNECTION_CODES.has(code)) return true;
  if (/^[0-9A-Z]{5}$/.test(code)) {
    // Class 08 connection exception, class 53 insufficient resources.
    return code.startsWith("08") || code.startsWith("53") || TRANSIENT_SQLSTATES.has(code);
  }
  return true;
}

/**
 * A summary of a database error that is safe to log: the driver's own message and code, never
 * the Drizzle wrapper's text (it repeats the statement's parameters: emails, session ids).
 */
export function dbErrorSummary(error: unknown): { code: string | null; message: string } {
  const root = rootOf(error);
  const message = typeof root.message === "string" ? root.message : String(root.message ?? "unknown error");
  // postgres.js puts the statement in some messages too; keep the first line and cap it.
  return { code: typeof root.code === "string" ? root.code : null, message: message.split("\n")[0].replace(/params:.*$/s, "").slice(0, 200) };
}
