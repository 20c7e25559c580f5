// The browser tests find a browser on their own: CHROME_PATH first, then a system Chromium, then
// the Chromium shipped in an npm package.

import { afterEach, describe, expect, test } from "bun:test";
import { findBrowser, SYSTEM_BROWSER_PATHS } from "../helpers/browser.ts";
import { accessSync, constants } from "node:fs";

const saved = process.env.CHROME_PATH;
afterEach(() => {
  if (saved === undefined) delete process.env.CHROME_PATH;
  else process.env.CHROME_PATH = saved;
});

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

describe("findBrowser", () => {
  test("CHROME_PATH wins, and a path that is not executable is a clear error", async () => {
    process.env.CHROME_PATH = "/nonexistent/chrome";
    await expect(findBrowser()).rejects.toThrow("CHROME_PATH=/nonexistent/chrome is not an executable file");
  });

  test("without CHROME_PATH: the first system browser, else the packaged one", async () => {
    delete process.env.CHROME_PATH;
    const binary = await findBrowser();
    const system = SYSTEM_BROWSER_PATHS.find(executable);
    if (system) expect(binary).toEqual({ executablePath: system, source: "system" });
    else {
      expect(binary.source).toBe("npm");
      expect(executable(binary.executablePath)).toBe(true);
    }
  });
});
