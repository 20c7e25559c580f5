import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig, VARIABLES } from "../../src/lib/config.ts";

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
    ]);
  });

  test("a short AUTH_SECRET is an error in every mode, together with other problems", () => {
    const problems = problemsOf({ NODE_ENV: "development", AUTH_SECRET: "short", DATA_MODE: "cloud", PORT: "http" });
    expect(problems).toContain("AUTH_SECRET must be at least 32 characters");
    expect(problems).toContain('DATA_MODE must be remote, local or test (got "cloud")');
    expect(problems.some((p) => p.startsWith("PORT must be an integer"))).toBe(true);
  });

  test("production with everything set parses; POSTGRES_URL is an alias", () => {
    const config = loadConfig({ NODE_ENV: "production", DATA_MODE: "remote", POSTGRES_URL: "postgres://u@h/db", AUTH_SECRET: SECRET });
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

  test("the README environment table lists exactly the variables config.ts reads", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.split("## Environment")[1]?.split("\n## ")[0] ?? "";
    const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(VARIABLES.map((v) => v.name));
    for (const variable of VARIABLES) {
      const row = section.split("\n").find((line) => line.startsWith(`| \`${variable.name}\` |`));
      expect(row).toContain(variable.secret ? "yes" : "no");
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
