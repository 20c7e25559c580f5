// Browser-test helpers: a headless Chromium driven by playwright-core against the app on a loopback
// port. The browser is found on its own: CHROME_PATH, else a system Chromium or Chrome, else the
// Chromium that ships inside the @sparticuz/chromium devDependency (so `npm ci && npm test` needs no
// system browser).

import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { createClock, createTestContext, lateBound, resolveOptions, type TestContext, type TestContextOptions } from "./app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { bigSheet } from "../../bench/fixtures.ts";

/** Where a system browser is looked for, in order (after CHROME_PATH). */
export const SYSTEM_BROWSER_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** A browser to launch: its binary and any environment it needs. */
export interface BrowserBinary {
  executablePath: string;
  source: "CHROME_PATH" | "system" | "npm";
  env?: Record<string, string>;
  /** Extra launch flags this binary needs. */
  args?: string[];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The packaged Chromium: the package inflates its brotli binary into the temp folder once per
 * machine. Its shared libraries (NSS, NSPR) are not on a minimal Debian image, so they are unpacked
 * beside it and handed to the browser through LD_LIBRARY_PATH.
 */
async function packagedChromium(): Promise<BrowserBinary> {
  const { default: packaged } = await import("@sparticuz/chromium");
  const executablePath = await packaged.executablePath();
  const libDir = join(tmpdir(), "finder-chromium-libs");
  if (!existsSync(join(libDir, "lib", "libnss3.so"))) {
    const archive = join(import.meta.dir, "../../node_modules/@sparticuz/chromium/bin/al2023.tar.br");
    mkdirSync(libDir, { recursive: true });
    const tar = brotliDecompressSync(readFileSync(archive));
    const proc = Bun.spawnSync(["tar", "-x", "-C", libDir], { stdin: tar });
    if (proc.exitCode !== 0) throw new Error(`could not unpack the packaged Chromium's libraries: ${proc.stderr.toString()}`);
  }
  const libPath = [join(libDir, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":");
  return { executablePath, source: "npm", env: { LD_LIBRARY_PATH: libPath, FONTCONFIG_PATH: join(tmpdir(), "fonts") }, args: ["--no-zygote"] };
}

/** Finds the browser for the tests: CHROME_PATH, a system Chromium/Chrome, else the npm one. */
export async function findBrowser(): Promise<BrowserBinary> {
  const fromEnv = process.env.CHROME_PATH?.trim();
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROME_PATH=${fromEnv} is not an executable file`);
    return { executablePath: fromEnv, source: "CHROME_PATH" };
  }
  const system = SYSTEM_BROWSER_PATHS.find(isExecutable);
  if (system) return { executablePath: system, source: "system" };
  return packagedChromium();
}

let found: Promise<BrowserBinary> | undefined;

export const SCREENSHOT_DIR = join(import.meta.dir, "../e2e/screenshots");

/** Viewports every page is checked on. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844, isMobile: true, hasTouch: true },
  desktop: { width: 1366, height: 900, isMobile: false, hasTouch: false },
} as const;

/** Launches headless Chromium with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  found ??= findBrowser();
  const binary = await found;
  return chromium.launch({
    executablePath: binary.executablePath,
    headless: true,
    env: binary.env ? { ...process.env, ...binary.env } : undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...(binary.args ?? [])],
  });
}

/**
 * Serves the test app on a free loopback port. A test may stop it early (to see the pages offline):
 * stopping again, as the closing hook does, is then a no-op.
 */
export function serveApp(ctx: TestContext): { url: string; stop: () => Promise<void> } {
  const server = ctx.app.listen({ port: 0, hostname: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${server.server!.port}`,
    stop: async () => {
      if (ctx.app.server) await ctx.app.stop(true);
    },
  };
}

/**
 * A browser context for a viewport; JavaScript can be switched off, and `locale` ("fr-FR") sets the
 * browser's language (its Accept-Language header and navigator.language).
 */
export function newContext(browser: Browser, viewport: keyof typeof VIEWPORTS, options: { javaScriptEnabled?: boolean; locale?: string } = {}): Promise<BrowserContext> {
  const v = VIEWPORTS[viewport];
  return browser.newContext({ viewport: { width: v.width, height: v.height }, isMobile: v.isMobile, hasTouch: v.hasTouch, javaScriptEnabled: options.javaScriptEnabled ?? true, locale: options.locale });
}

/** Collects console errors and page errors of a page, for "no console errors" checks. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

/** Saves a screenshot under test/e2e/screenshots (git-ignored; a CI artifact). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Opens a section of the home's filter panel by its title. On a phone the panel is shown only as the
 * sheet the sticky bar opens (a results swap closes it again), and its sections start closed unless
 * a value in them is active.
 */
export async function openFilterSection(page: Page, name: string): Promise<void> {
  // A results swap still settling (htmx inserts, then settles about 20 ms later, and the sheet
  // closes on settle) would close the sheet just after it was found open.
  await page.waitForFunction(() => !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling"));
  if (!(await page.locator("#filters").isVisible())) {
    await page.locator("#sticky-bar").click();
    await page.waitForFunction(() => document.body.classList.contains("filters-open"));
  }
  const section = page.locator("details.filter-section", { has: page.locator("summary", { hasText: name }) });
  if (!(await section.evaluate((el) => (el as HTMLDetailsElement).open))) await section.locator("summary").click();
}

/**
 * Whether the browser still answers. Its `isConnected()` stays true for a moment after the process
 * was killed, so a context is opened and closed instead.
 */
async function answers(browser: Browser): Promise<boolean> {
  try {
    await (await browser.newContext()).close();
    return true;
  } catch {
    return false;
  }
}

/** A served test app and the browser that visits it. */
export interface BrowserApp {
  ctx: TestContext;
  server: { url: string; stop: () => Promise<void> };
  browser: Browser;
}

/** The app of `useBrowserApp`: its options and the data to seed before it is served. */
export type BrowserAppOptions = TestContextOptions & { seed?: (ctx: TestContext) => Promise<unknown> };

/**
 * A festival-night app: the clock at `at`, the event store holding a generated sheet of `rows`
 * events published at that moment (the bench's fixture), and no CSV fallback. The browser tests of
 * the night (live states, My night, offline) start from it.
 */
export function festivalSheetApp(at: Date, rows: number): BrowserAppOptions {
  return {
    clock: createClock(at),
    env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" },
    seed: async (ctx) => {
      const saved = await saveStoreSheet(ctx.deps.db, bigSheet(rows), { updatedBy: "admin-upload", origin: "manual", now: at });
      if (!saved.ok) throw new Error(saved.error);
    },
  };
}

/**
 * The shared setup of the browser tests: the test app (seeded by `seed` before it is served) on a
 * loopback port and a headless Chromium, started in `beforeAll` (up to 2 minutes: a first run
 * unpacks the bundled Chromium), started again before a test if it went away, and stopped in
 * `afterAll`. The options can be a function, read
 * when the `beforeAll` runs (for a fake server an earlier `beforeAll` started).
 */
export function useBrowserApp(options: BrowserAppOptions | (() => BrowserAppOptions) = {}): BrowserApp {
  let started: Partial<BrowserApp> = {};
  beforeAll(async () => {
    const { seed, ...contextOptions } = resolveOptions(options);
    const ctx = await createTestContext(contextOptions);
    started.ctx = ctx;
    await seed?.(ctx);
    started.server = serveApp(ctx);
    started.browser = await launchBrowser();
  }, 120_000);
  // A test that runs past its timeout has its child processes killed by the runner, the browser
  // among them: the next test gets a new one instead of failing on a closed browser.
  beforeEach(async () => {
    if (started.browser && !(await answers(started.browser))) started.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
    await started.ctx?.close();
    started = {};
  });
  return {
    ctx: lateBound(() => started.ctx, "useBrowserApp().ctx"),
    server: lateBound(() => started.server, "useBrowserApp().server"),
    browser: lateBound(() => started.browser, "useBrowserApp().browser"),
  };
}
