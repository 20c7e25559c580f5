import { describe, expect, test } from "bun:test";
import { createLogger, type LogLevel } from "../../src/lib/logger.ts";

function capture(mode: "development" | "json", start = 1_750_000_000_000) {
  let now = start;
  const lines: { level: LogLevel; line: string }[] = [];
  const log = createLogger({ mode, now: () => now, write: (level, line) => lines.push({ level, line }) });
  return { log, lines, tick: (ms: number) => (now += ms) };
}

describe("logger", () => {
  test("JSON lines carry level, scope, message, context, error, ts in that order", () => {
    const { log, lines } = capture("json");
    log.error("db", "Query failed", { table: "kv" }, new Error("boom"));
    log.info("boot", "Ready");
    const first = JSON.parse(lines[0].line);
    expect(Object.keys(first)).toEqual(["level", "scope", "message", "context", "error", "ts"]);
    expect(first).toMatchObject({ level: "error", scope: "db", message: "Query failed", context: { table: "kv" } });
    expect(first.error.message).toBe("boom");
    expect(typeof first.error.stack).toBe("string");
    expect(new Date(first.ts).toISOString()).toBe(first.ts);
    expect(Object.keys(JSON.parse(lines[1].line))).toEqual(["level", "scope", "message", "ts"]);
    expect(lines.map((l) => l.level)).toEqual(["error", "info"]);
  });

  test("a non-Error value becomes {message}", () => {
    const { log, lines } = capture("json");
    log.warn("x", "y", undefined, "plain text");
    expect(JSON.parse(lines[0].line).error).toEqual({ message: "plain text" });
  });

  test("development suppresses identical info lines within 1200 ms and refreshes on every attempt", () => {
    const { log, lines, tick } = capture("development");
    log.info("s", "same", { a: 1 });
    tick(1000);
    log.info("s", "same", { a: 1 }); // suppressed, refreshes last-seen
    tick(1000);
    log.info("s", "same", { a: 1 }); // still within 1200 ms of the previous attempt
    tick(1300);
    log.info("s", "same", { a: 1 }); // written
    log.info("s", "same", { a: 2 }); // different context: written
    expect(lines.length).toBe(3);
    expect(lines[0].line).toBe('· [s] same {"a":1}');
  });

  test("warn and error are never suppressed; production never suppresses info", () => {
    const dev = capture("development");
    dev.log.warn("s", "w");
    dev.log.warn("s", "w");
    dev.log.error("s", "e", undefined, new Error("why"));
    dev.log.error("s", "e", undefined, new Error("why"));
    expect(dev.lines.length).toBe(4);
    expect(dev.lines[2].line).toBe("✗ [s] e\n  → why");
    const prod = capture("json");
    prod.log.info("s", "same");
    prod.log.info("s", "same");
    expect(prod.lines.length).toBe(2);
  });

  test("database errors keep their code and table; Drizzle's statement and parameters never reach a line", () => {
    const { log, lines } = capture("json");
    const driver = Object.assign(new Error('invalid input syntax for type uuid: "bob@example.com"'), { name: "PostgresError", severity: "ERROR", code: "22P02", table_name: "users" });
    const wrapped = Object.assign(new Error('Failed query: select * from users where email = $1\nparams: bob@example.com'), { name: "DrizzleQueryError", query: "select", params: ["bob@example.com"], cause: driver });
    log.error("auth", "Lookup failed", { nested: { reason: wrapped.message, cause: wrapped } }, wrapped);
    log.warn("db", "Unreachable", undefined, Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }));
    const text = lines.map((l) => l.line).join("\n");
    expect(text).not.toContain("bob@example.com");
    expect(text).not.toContain("select");
    const first = JSON.parse(lines[0].line);
    expect(first.error).toMatchObject({ message: "Database error 22P02 on table users", code: "22P02", table: "users" });
    expect(JSON.parse(lines[1].line).error.message).toBe("Database unreachable (ECONNREFUSED)");
  });
});
