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
