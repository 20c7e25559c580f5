// Database error triage for background writers: transient (worth retrying: connection lost,
// server restarting, deadlock) or permanent (the data itself is refused), and a log-safe summary.

/** Error codes of postgres.js and Node sockets that mean "the connection, not the data". */
const CONNECTION_CODES: ReadonlySet<string> = new Set([
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
  // The breaker's answer while the server is known to be down (src/lib/db/breaker.ts), and a
  // write to a socket that the breaker or the server already closed.
  "DATABASE_DOWN",
  "ERR_SOCKET_CLOSED",
  "ERR_STREAM_DESTROYED",
]);

/** SQLSTATEs worth retrying: serialization failure, deadlock, lock timeout, cancel, shutdown, startup. */
const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set(["40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "58000", "58030"]);

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

/** A summary of a database error that is safe to log: its code and the safe message of `safeDbError`. */
export function dbErrorSummary(error: unknown): { code: string | null; message: string } {
  const safe = safeDbError(error);
  return { code: safe.code, message: safe.message };
}

/** A database error reduced to what may be logged or answered: no SQL, no parameters, no values. */
export interface SafeDbError {
  /** "Database error 23505 on table users", "Database unreachable (ECONNREFUSED)". */
  message: string;
  /** SQLSTATE or driver/socket code, when known. */
  code: string | null;
  /** Table the server named, when it named one. */
  table: string | null;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  query?: unknown;
  params?: unknown;
  parameters?: unknown;
  severity?: unknown;
  table_name?: unknown;
  table?: unknown;
  errors?: unknown;
}

function chainOf(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    chain.push(current as ErrorLike);
    const next = (current as ErrorLike).cause ?? (Array.isArray((current as ErrorLike).errors) ? ((current as ErrorLike).errors as unknown[])[0] : undefined);
    current = next;
  }
  return chain;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

function isDbLayer(e: ErrorLike): boolean {
  if (e.name === "DrizzleQueryError" || e.name === "PostgresError" || e.name === "DatabaseError") return true;
  if (typeof e.message === "string" && e.message.startsWith("Failed query:")) return true;
  if ("query" in e && ("params" in e || "parameters" in e)) return true;
  if (typeof e.severity === "string" && typeof e.code === "string" && SQLSTATE.test(e.code)) return true;
  return typeof e.code === "string" && CONNECTION_CODES.has(e.code);
}

/** True when `error` (or its cause) comes from the database layer: a driver, Drizzle or a socket to the server. */
export function isDatabaseError(error: unknown): boolean {
  return chainOf(error).some(isDbLayer);
}

/**
 * The log- and response-safe form of a database error: the SQLSTATE (or connection code) and the
 * table the server named. The driver's message is left out on purpose: Postgres repeats values in
 * some of them ("invalid input syntax for type uuid: \"…\""), and Drizzle's repeats the statement
 * and every parameter (emails, addresses, session ids).
 */
export function safeDbError(error: unknown): SafeDbError {
  const chain = chainOf(error);
  let code: string | null = null;
  let table: string | null = null;
  for (const e of chain) {
    if (code === null && typeof e.code === "string") code = e.code;
    const named = typeof e.table_name === "string" ? e.table_name : typeof e.table === "string" ? e.table : null;
    if (table === null && named) table = named;
  }
  if (code !== null && CONNECTION_CODES.has(code)) return { message: `Database unreachable (${code})`, code, table };
  const message = `Database error${code ? ` ${code}` : ""}${table ? ` on table ${table}` : ""}`;
  return { message, code, table };
}

/** An error's text fit for a log line or a response: the safe summary for database errors, else the message. */
export function safeErrorText(error: unknown): string {
  if (isDatabaseError(error)) return safeDbError(error).message;
  return error instanceof Error ? error.message : String(error);
}

/** True when the error says the server could not be reached at all (refused, timed out, reset), as opposed to a refused statement. */
export function isDatabaseUnreachable(error: unknown): boolean {
  return chainOf(error).some((e) => typeof e.code === "string" && CONNECTION_CODES.has(e.code));
}

/**
 * Why the process could not start, in one line an operator can act on: an unreachable database
 * names the cause (ECONNREFUSED, CONNECT_TIMEOUT, ENOTFOUND…) and the host and port, never the
 * connection string (it may hold a password).
 */
export function startupFailureText(error: unknown): string {
  // The innermost connection error is the cause (the breaker's own refusal carries the error that opened it).
  const unreachable = [...chainOf(error)].reverse().find((e) => typeof e.code === "string" && CONNECTION_CODES.has(e.code)) as
    | (ErrorLike & { address?: unknown; port?: unknown; hostname?: unknown })
    | undefined;
  if (unreachable) {
    const host = typeof unreachable.address === "string" ? unreachable.address : typeof unreachable.hostname === "string" ? unreachable.hostname : undefined;
    const where = host ? ` at ${host}${unreachable.port !== undefined ? `:${String(unreachable.port)}` : ""}` : "";
    const cause = unreachable.code === "CONNECT_TIMEOUT" ? "connection timed out (CONNECT_TIMEOUT)" : String(unreachable.code);
    return `database unreachable: ${cause}${where}. Check that the Postgres server is running and DATABASE_URL points to it.`;
  }
  if (isDatabaseError(error)) return safeDbError(error).message;
  return error instanceof Error ? error.message : String(error);
}
