// Durable key-value store on the Postgres kv table (JSON values): coordinates cache, banner, settings.

/** One stored KV record. */
export interface KvRecord<T = unknown> {
  key: string;
  value: T;
  updatedAt: Date;
}

/** The KV operations every module uses; built once in deps over the database. */
export interface Kv {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list(prefix: string, limit?: number): Promise<KvRecord[]>;
  /** Reads, transforms and writes one key atomically (row lock held for the duration). */
  update<T>(key: string, fn: (current: T | undefined) => T): Promise<T>;
}

import { and, asc, eq, like, sql } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import { kvStore } from "./db/schema/index.ts";

function escapeLike(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The KV operations over the kv_store table. */
export function createKv(db: Db): Kv {
  return {
    async get<T>(key: string) {
      const rows = await db.select({ value: kvStore.value }).from(kvStore).where(eq(kvStore.key, key)).limit(1);
      return rows.length ? (rows[0].value as T) : undefined;
    },
    async set(key, value) {
      await db
        .insert(kvStore)
        .values({ key, value: value as object, updatedAt: new Date() })
        .onConflictDoUpdate({ target: kvStore.key, set: { value: value as object, updatedAt: new Date() } });
    },
    async delete(key) {
      const rows = await db.delete(kvStore).where(eq(kvStore.key, key)).returning({ key: kvStore.key });
      return rows.length > 0;
    },
    async list(prefix, limit = 500) {
      const rows = await db
        .select()
        .from(kvStore)
        .where(prefix ? like(kvStore.key, `${escapeLike(prefix)}%`) : undefined)
        .orderBy(asc(kvStore.key))
        .limit(limit);
      return rows.map((r) => ({ key: r.key, value: r.value, updatedAt: r.updatedAt }));
    },
    async update<T>(key: string, fn: (current: T | undefined) => T) {
      return db.transaction(async (tx) => {
        // Create the row if needed so that FOR UPDATE has something to lock, then read it locked.
        await tx.insert(kvStore).values({ key, value: sql`'null'::jsonb` }).onConflictDoNothing();
        const rows = await tx.select({ value: kvStore.value }).from(kvStore).where(and(eq(kvStore.key, key))).for("update");
        const current = rows[0]?.value;
        const next = fn(current === null || current === undefined ? undefined : (current as T));
        await tx.update(kvStore).set({ value: next as object, updatedAt: new Date() }).where(eq(kvStore.key, key));
        return next;
      });
    },
  };
}
