// KV inspection for operators (GET /api/admin/postgres/kv): one key or a prefix
// listing; values only when asked, and anything that looks like a secret is redacted even then.

import { asc, count, eq, like, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { kvStore } from "../db/schema/index.ts";
import { refused, type Refused } from "../outcome.ts";

export const KV_LIMIT = { min: 1, max: 500, default: 100 } as const;
const MAX_KEY_LENGTH = 512;
const SECRET_NAME = /secret|token|password|passwd|credential|private[_-]?key|api[_-]?key|signature/i;
export const REDACTED = "[redacted]";

/** A validated inspection request. */
export type KvQuery = { mode: "key"; key: string; includeValues: boolean } | { mode: "list"; prefix: string; limit: number; includeValues: boolean };

/** Reads `key`, `prefix`, `limit` and `includeValues` from the query string; `key` wins over `prefix`. */
export function parseKvQuery(query: Record<string, unknown>): { ok: true; query: KvQuery } | Refused<"invalid"> {
  const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : undefined);
  const includeValues = ["1", "true", "yes"].includes((text("includeValues") ?? "").toLowerCase());
  const key = text("key")?.trim();
  const prefix = text("prefix")?.trim() ?? "";
  if ((key?.length ?? 0) > MAX_KEY_LENGTH || prefix.length > MAX_KEY_LENGTH) return refused("invalid", `key and prefix must be at most ${MAX_KEY_LENGTH} characters`);
  if (key) return { ok: true, query: { mode: "key", key, includeValues } };
  const rawLimit = text("limit")?.trim();
  let limit: number = KV_LIMIT.default;
  if (rawLimit !== undefined && rawLimit !== "") {
    limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || limit < KV_LIMIT.min || limit > KV_LIMIT.max) return refused("invalid", `limit must be an integer from ${KV_LIMIT.min} to ${KV_LIMIT.max}`);
  }
  return { ok: true, query: { mode: "list", prefix, limit, includeValues } };
}

/** A value with every secret-looking field replaced by "[redacted]". */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) ? REDACTED : redactSecrets(v, depth + 1)]));
  }
  return value;
}

function shown(key: string, value: unknown): unknown {
  return SECRET_NAME.test(key) ? REDACTED : redactSecrets(value);
}

function escapeLike(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Runs an inspection. */
export async function inspectKv(db: Db, query: KvQuery) {
  if (query.mode === "key") {
    const [row] = await db.select().from(kvStore).where(eq(kvStore.key, query.key)).limit(1);
    if (!row) return { success: true as const, key: query.key, found: false };
    return {
      success: true as const,
      key: query.key,
      found: true,
      record: { key: row.key, updatedAt: row.updatedAt.toISOString(), ...(query.includeValues ? { value: shown(row.key, row.value) } : {}) },
    };
  }
  const where = query.prefix ? like(kvStore.key, `${escapeLike(query.prefix)}%`) : undefined;
  // Values are only read from the database when they will be shown.
  const value = query.includeValues ? kvStore.value : sql<unknown>`null`;
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(kvStore).where(where),
    db.select({ key: kvStore.key, updatedAt: kvStore.updatedAt, value }).from(kvStore).where(where).orderBy(asc(kvStore.key)).limit(query.limit),
  ]);
  return {
    success: true as const,
    query: { prefix: query.prefix, limit: query.limit, includeValues: query.includeValues },
    totalKeyCount: Number(total?.n ?? 0),
    returnedCount: rows.length,
    records: rows.map((r) => ({ key: r.key, updatedAt: r.updatedAt.toISOString(), ...(query.includeValues ? { value: shown(r.key, r.value) } : {}) })),
  };
}
