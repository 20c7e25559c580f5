import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig, PACKAGE_KEYS, readyLine, VARIABLES, type VariableSpec } from "../../src/lib/config.ts";

const SECRET = "x".repeat(32);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  test("production lists every missing requirement at once", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    expect(problems).toEqual([
      "DATA_MODE is required in production (remote, local or test)",
      "DATABASE_URL (or POSTGRES_URL) is required in production",
      "AUTH_SECRET is required in production",
      'TRUSTED_PROXIES is required in production: the addresses of the proxies in front of the service, or `none` when clients connect directly (docs/operations.md, "Behind a proxy")',
    ]);
  });

  test("production refuses an ADMIN_KEY under 128 bits of entropy, saying why, and takes `none` for TRUSTED_PROXIES", () => {
    const base = { NODE_ENV: "production", DATA_MODE: "remote", DATABASE_URL: "postgres://u@h/db", AUTH_SECRET: SECRET, TRUSTED_PROXIES: "none" };
    // Long but patterned keys: a run, a repeated chunk, a count.
    for (const weak of ["a".repeat(32), "a".repeat(200), "password1234password1234password1234", "password1234567890abcdefghijklmnopqrstuvwxyz", "0123456789".repeat(6), "short"]) {
      const problems = problemsOf({ ...base, ADMIN_KEY: weak });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^ADMIN_KEY is too easy to guess: about \d+ bits of entropy, production needs at least 128 .*openssl rand -hex 32/);
    }
    expect(problemsOf({ ...base, ADMIN_KEY: "a".repeat(32) })[0]).toStartWith("ADMIN_KEY is too easy to guess: about 8 bits");
    // What `openssl rand -hex 32` and `openssl rand -base64 24` print always passes.
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(32);
      expect(problemsOf({ ...base, ADMIN_KEY: bytes.toString("hex") })).toEqual([]);
      expect(problemsOf({ ...base, ADMIN_KEY: bytes.subarray(0, 24).toString("base64") })).toEqual([]);
    }
    // Listed with the other problems at once; development takes any key.
    expect(problemsOf({ ...base, AUTH_SECRET: undefined as unknown as string, ADMIN_KEY: "a".repeat(40) })).toHaveLength(2);
    expect(loadConfig(base).trustedProxies).toEqual(["none"]);
    // Development keeps its convenient defaults.
    expect(problemsOf({ NODE_ENV: "development", AUTH_SECRET: SECRET, ADMIN_KEY: "short" })).toEqual([]);
  });

  test("a short AUTH_SECRET is an error in every mode, together with other problems", () => {
    const problems = problemsOf({ NODE_ENV: "development", AUTH_SECRET: "short", DATA_MODE: "cloud", PORT: "http" });
    expect(problems).toContain("AUTH_SECRET must be at least 32 characters");
    expect(problems).toContain('DATA_MODE must be remote, local or test (got "cloud")');
    expect(problems.some((p) => p.startsWith("PORT must be an integer"))).toBe(true);
  });

  test("production with everything set parses; POSTGRES_URL is an alias", () => {
    const config = loadConfig({ NODE_ENV: "production", DATA_MODE: "remote", POSTGRES_URL: "postgres://u@h/db", AUTH_SECRET: SECRET, TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(config.isProduction).toBe(true);
    expect(config.databaseUrl).toBe("postgres://u@h/db");
    expect(config.dataMode).toBe("remote");
  });

  test("development generates AUTH_SECRET once and keeps it in DATA_DIR", () => {
    const dir = mkdtempSync(join(tmpdir(), "finder-config-"));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.authSecretGenerated).toBe(true);
    expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.authSecret).toBe(first.authSecret);
    expect(readFileSync(join(dir, "auth-secret"), "utf8").trim()).toBe(first.authSecret);
  });

  test("defaults: remote mode, port 3000, 3 spotlight slots, Google endpoints", () => {
    const config = loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: mkdtempSync(join(tmpdir(), "finder-config-")) });
    expect(config.dataMode).toBe("remote");
    expect(config.port).toBe(3000);
    expect(config.spotlightSlots).toBe(3);
    expect(config.geocodingApiUrl).toBe("https://maps.googleapis.com/maps/api/geocode/json");
    expect(config.sheetsApiUrl).toBe("https://sheets.googleapis.com/v4/spreadsheets");
    expect(config.databaseUrl).toBeUndefined();
  });

  test("the README environment table is config.ts's table: same variables, order, defaults, secrets and meanings", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.split("## Environment")[1]?.split("\n## ")[0] ?? "";
    const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(VARIABLES.map((v) => v.name));
    for (const variable of VARIABLES) {
      const row = section.split("\n").find((line) => line.startsWith(`| \`${variable.name}\` |`));
      const shownDefault = variable.default === undefined ? "–" : `\`${variable.default}\``;
      expect(row).toBe(`| \`${variable.name}\` | ${shownDefault} | ${variable.secret ? "yes" : "no"} | ${variable.description} |`);
    }
  });

  test("no module outside config.ts reads the environment", async () => {
    const glob = new Bun.Glob("src/**/*.{ts,tsx}");
    const offenders: string[] = [];
    for await (const file of glob.scan({ cwd: join(import.meta.dir, "../..") })) {
      if (file === "src/lib/config.ts") continue;
      const text = readFileSync(join(import.meta.dir, "../..", file), "utf8");
      if (/process\.env|Bun\.env|import\.meta\.env/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});

/** A value each kind of variable refuses, with the text its problem quotes (if it quotes one). */
const BAD_VALUES: Record<VariableSpec["type"], { value: string; quoted?: string } | undefined> = {
  integer: { value: "ten", quoted: '"ten"' },
  url: { value: "ftp://example.org" },
  enum: { value: "Sometimes", quoted: '"' },
  boolean: { value: "maybe", quoted: '"maybe"' },
  list: { value: "10.0.0.0/8,not-an-address" },
  json: { value: "[1, 2]" },
  string: undefined,
  path: undefined,
};

describe("the config table", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "finder-config-"));
  const base = { AUTH_SECRET: SECRET, DATA_DIR: dataDir };

  test("a bad value of any checked variable gives one problem that names the variable", () => {
    const checked = VARIABLES.filter((v) => BAD_VALUES[v.type]);
    expect(checked.length).toBeGreaterThan(20);
    for (const variable of checked) {
      const bad = BAD_VALUES[variable.type]!;
      const problems = problemsOf({ ...base, [variable.name]: bad.value });
      expect(problems).toHaveLength(1);
      // The alias shares its variable's problem: "DATABASE_URL/POSTGRES_URL must be …".
      expect(problems[0]!.split(/[ :]/)[0]!.split("/")).toContain(variable.name);
      if (bad.quoted) expect(problems[0]).toContain(bad.quoted);
    }
  });

  test("text checks name their variable: a short AUTH_SECRET, a partner address that is not an email", () => {
    expect(problemsOf({ ...base, AUTH_SECRET: "too short" })).toEqual(["AUTH_SECRET must be at least 32 characters"]);
    expect(problemsOf({ ...base, NEXT_PUBLIC_PARTNER_EMAIL: "partners" })).toEqual(["NEXT_PUBLIC_PARTNER_EMAIL must be an email address"]);
  });

  test("every problem is reported at once, each bad proxy entry on its own", () => {
    const problems = problemsOf({ ...base, PORT: "-1", LOG_LEVEL: "debug", TRUSTED_PROXIES: "bogus, 1.2.3.4/99", SHEETS_API_URL: "sheets" });
    expect(problems).toHaveLength(5);
    expect(problems.filter((p) => p.startsWith("TRUSTED_PROXIES: "))).toHaveLength(2);
    expect(problems).toContain("SHEETS_API_URL must be an http(s) URL");
  });

  test("an unset variable gives the same configuration as its default written out", () => {
    const unset = loadConfig(base);
    for (const variable of VARIABLES) {
      // Defaults that describe a rule rather than a value are covered by the tests below.
      if (variable.name in base || variable.default === undefined || variable.default.includes(" ") || variable.default.includes("<")) continue;
      expect({ name: variable.name, config: loadConfig({ ...base, [variable.name]: variable.default }) }).toEqual({ name: variable.name, config: unset });
    }
  });

  test("DATABASE_URL wins over its alias POSTGRES_URL, whose value is then not read", () => {
    expect(loadConfig({ ...base, POSTGRES_URL: "postgres://alias@h/db" }).databaseUrl).toBe("postgres://alias@h/db");
    expect(loadConfig({ ...base, DATABASE_URL: "postgresql://main@h/db", POSTGRES_URL: "not a url" }).databaseUrl).toBe("postgresql://main@h/db");
    expect(problemsOf({ ...base, POSTGRES_URL: "mysql://h/db" })).toEqual(["DATABASE_URL/POSTGRES_URL must be a postgres:// or postgresql:// connection string"]);
  });

  test("the payment-link variables are gathered by package key, unset ones left out", () => {
    const config = loadConfig({ ...base, NEXT_PUBLIC_PAYMENT_LINK_SPOTLIGHT_TAKEOVER: "https://pay.example/t", NEXT_PUBLIC_PAYMENT_LINK_ADDON_NEWSLETTER: "https://pay.example/n" });
    expect(config.paymentLinks).toEqual({ "spotlight-takeover": "https://pay.example/t", "addon-newsletter": "https://pay.example/n" });
    for (const key of PACKAGE_KEYS) expect(VARIABLES.some((v) => v.name === `NEXT_PUBLIC_PAYMENT_LINK_${key.toUpperCase().replace(/-/g, "_")}`)).toBe(true);
  });

  test("reshaped values: partner address from the site host, base path and URLs without trailing slashes, absolute paths", () => {
    const config = loadConfig({ ...base, NEXT_PUBLIC_SITE_URL: "https://fete.example.org/", NEXT_PUBLIC_BASE_PATH: "musique/", SHEETS_API_URL: "https://sheets.example/v4//", LOCAL_EVENTS_CSV: "data/events.csv" });
    expect(config.partnerEmail).toBe("partners@fete.example.org");
    expect(config.siteUrl).toBe("https://fete.example.org");
    expect(config.basePath).toBe("/musique");
    expect(config.sheetsApiUrl).toBe("https://sheets.example/v4");
    expect(config.localEventsCsv).toBe(join(process.cwd(), "data/events.csv"));
    expect(loadConfig({ ...base, NEXT_PUBLIC_PARTNER_EMAIL: "hello@fete.example.org" }).partnerEmail).toBe("hello@fete.example.org");
  });

  test("the mixed-case words of CRON_ENABLED and TRACKING_LIMITER_FALLBACK are read in any case", () => {
    const config = loadConfig({ ...base, CRON_ENABLED: "No", TRACKING_LIMITER_FALLBACK: "LOCAL" });
    expect(config.cronEnabled).toBe(false);
    expect(config.trackingLimiterFallback).toBe("local");
  });
});

describe("a first start", () => {
  const dev = { AUTH_SECRET: SECRET, DATA_DIR: "/tmp/finder-config-test" };

  test("in development without NEXT_PUBLIC_SITE_URL the site's links follow PORT; a set address, production and tests keep theirs", () => {
    expect(loadConfig({ ...dev, PORT: "3001" }).siteUrl).toBe("http://localhost:3001");
    expect(loadConfig({ ...dev }).siteUrl).toBe("http://localhost:3000");
    expect(loadConfig({ ...dev, PORT: "3001", NEXT_PUBLIC_SITE_URL: "https://fete.example.org" }).siteUrl).toBe("https://fete.example.org");
    expect(loadConfig({ ...dev, PORT: "3001", NODE_ENV: "test" }).siteUrl).toBe("http://localhost:3000");
  });

  test("the ready line names the address to open, the database actually used and whether the console is on", () => {
    const config = loadConfig({ ...dev, PORT: "3001" });
    expect(readyLine(config, 3001, "pglite")).toBe(
      "[finder] Ready at http://localhost:3001/ | data=remote | db=embedded (/tmp/finder-config-test) | console=off (set ADMIN_KEY to enable /admin) | geocoding=arrondissement-fallback",
    );
    const served = loadConfig({ ...dev, HOST: "127.0.0.1", ADMIN_KEY: "k".repeat(40), DATABASE_URL: "postgres://db.example/finder", NEXT_PUBLIC_BASE_PATH: "/fete" });
    expect(readyLine(served, 8080, "postgres")).toBe("[finder] Ready at http://127.0.0.1:8080/fete/ | data=remote | db=postgres | console=on at /admin | geocoding=arrondissement-fallback");
  });
});
