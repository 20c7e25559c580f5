// Builds the real app over the shared test database, with a movable clock and captured logs.

import { afterAll, beforeAll } from "bun:test";
import { loadConfig, type Config } from "../../src/lib/config.ts";
import { buildDeps, type Deps } from "../../src/deps.ts";
import { createApp, type App } from "../../src/app.ts";
import { createMemoryLogger } from "../../src/lib/logger.ts";
import { resetDatabase, sharedDatabase } from "./database.ts";

export const TEST_AUTH_SECRET = "test-auth-secret-0123456789abcdef-0123456789";
export const TEST_ADMIN_KEY = "test-admin-key-7f3a9c2e41b8d6f05e92c7a13b4d8e6f";

/** A clock tests can set and move. */
export interface TestClock {
  now: () => Date;
  set(date: Date | string): void;
  advance(ms: number): void;
}

export function createClock(start: Date | string = "2026-06-21T10:00:00Z"): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface TestContext {
  app: App;
  deps: Deps;
  config: Config;
  clock: TestClock;
  logs: ReturnType<typeof createMemoryLogger>["lines"];
  /** Sends a request through app.handle (no port, no socket: the peer counts as a trusted local proxy). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Listens on a free loopback port (a real socket, so the server knows the peer address) and
   * returns its base URL; the server stops with close().
   */
  listen(): string;
  close(): Promise<void>;
}

export interface TestContextOptions {
  env?: Record<string, string | undefined>;
  clock?: TestClock;
  /** Keep the tables as they are (default: emptied). */
  keepData?: boolean;
}

/** The test environment: test data mode, fixed secrets, no schedule. */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: "test",
    DATA_MODE: "test",
    AUTH_SECRET: TEST_AUTH_SECRET,
    ADMIN_KEY: TEST_ADMIN_KEY,
    CRON_ENABLED: "false",
    NEXT_PUBLIC_SITE_URL: "http://finder.test",
    DATA_DIR: "/tmp/finder-test-data",
    // Set as production requires; the tests' in-process and loopback peers are the proxies.
    TRUSTED_PROXIES: "loopback,private",
    // The suite's assertions read English; the i18n tests pass DEFAULT_LANGUAGE: undefined to get
    // the production default (French).
    DEFAULT_LANGUAGE: "en",
    ...overrides,
  };
}

/** Builds a fresh app over the (emptied) shared test database. */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const database = await sharedDatabase();
  if (!options.keepData) await resetDatabase(database);
  const config = loadConfig(testEnv(options.env));
  const clock = options.clock ?? createClock();
  const log = createMemoryLogger("json");
  const deps = await buildDeps(config, { database, log, now: clock.now, skipMigrations: true, ownsDatabase: false });
  const app = createApp(deps);
  return {
    app,
    deps,
    config,
    clock,
    logs: log.lines,
    request: (path, init) => app.handle(new Request(`http://finder.test${path}`, init)),
    listen: () => {
      if (!app.server) app.listen({ port: 0, hostname: "127.0.0.1", reusePort: false });
      return `http://127.0.0.1:${app.server!.port}`;
    },
    close: async () => {
      await app.server?.stop(true);
      await deps.shutdown();
    },
  };
}

/** The header htmx sends with every request it makes. */
export const HTMX_HEADERS: Readonly<Record<string, string>> = { "hx-request": "true" };

/** Sends `body` as JSON (a string is sent as it is) with `POST`, or the method given, and extra headers. */
export function postJson(ctx: Pick<TestContext, "request">, path: string, body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<Response> {
  return ctx.request(path, { method, headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/**
 * An object that stands for the value `get` returns once a `beforeAll` has set it: property reads,
 * method calls and spreads go to that value. Read it inside tests and hooks, not at load time.
 */
export function lateBound<T extends object>(get: () => T | undefined, name: string): T {
  const target = (): T => {
    const value = get();
    if (value === undefined) throw new Error(`${name} is used before its beforeAll ran`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const value = Reflect.get(target(), key);
      return typeof value === "function" ? value.bind(target()) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => key in target(),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * Options for `useTestApp`/`useBrowserApp`, or a function that gives them when the `beforeAll`
 * runs: for options that depend on something an earlier `beforeAll` started (a fake server's URL).
 */
export type LazyTestContextOptions = TestContextOptions | (() => TestContextOptions);

/** The options themselves (a function's answer when they are lazy), read as the app is built. */
export function resolveOptions<T extends object>(options: T | (() => T)): T {
  return typeof options === "function" ? options() : options;
}

/**
 * The shared setup of the HTTP tests: a fresh app over the emptied test database, built in
 * `beforeAll` of the enclosing describe (or file) and closed in its `afterAll`. Data the tests need
 * is seeded in a `beforeAll` registered after this call (hooks run in the order they are declared).
 * A second app over the same data (another configuration of the same tables) is a second call with
 * `keepData: true`, after the first.
 */
export function useTestApp(options: LazyTestContextOptions = {}): TestContext {
  let current: TestContext | undefined;
  beforeAll(async () => {
    current = await createTestContext(resolveOptions(options));
  });
  afterAll(() => current?.close());
  return lateBound(() => current, "useTestApp()");
}

/**
 * Runs `use` with an app of its own for one test (another configuration, often over the same data
 * with `keepData: true`), and closes it afterwards, whether `use` passed or threw.
 */
export async function withTestApp<T>(options: TestContextOptions, use: (ctx: TestContext) => Promise<T>): Promise<T> {
  const ctx = await createTestContext(options);
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
  }
}
