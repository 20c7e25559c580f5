// Spreadsheet import client: service-account JWT and token cache, values → CSV, public CSV, strategy order and errors.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import {
  createSheetTokenCache,
  getServiceAccountToken,
  parseServiceAccountKey,
  SheetSourceError,
  type SheetTokenCache,
  valuesToCsv,
} from "../../../src/lib/spreadsheet-import/service-account.ts";
import {
  describeSheetSource,
  fetchSheetCsv,
  parseSheetId,
  publicCsvUrl,
  type SheetSourceConfig,
} from "../../../src/lib/spreadsheet-import/sheet-source.ts";
import { createTestServiceAccount, PUBLIC_CSV, startFakeGoogle, type FakeGoogle, type TestServiceAccount } from "./fake-google.ts";

let fake: FakeGoogle;
let account: TestServiceAccount;
let rejected: TestServiceAccount;
let stranger: TestServiceAccount;

beforeAll(async () => {
  account = await createTestServiceAccount();
  rejected = await createTestServiceAccount("rejected@finder-test.iam.gserviceaccount.com");
  // Signs with a key the fake does not know.
  stranger = await createTestServiceAccount("stranger@finder-test.iam.gserviceaccount.com");
  fake = startFakeGoogle([account, rejected]);
});
afterAll(() => fake.stop());
let tokens: SheetTokenCache;
beforeEach(() => {
  tokens = createSheetTokenCache();
});

const EXPECTED_VALUES_CSV = [
  "Title,Date,Location,Notes",
  '"Jazz, live",2026-06-21,"Le ""Petit"" Bain",',
  'Solo,2026-06-21,,"line one\nline two"',
  "Short,,,",
].join("\n");

function config(extra: Partial<SheetSourceConfig> = {}): SheetSourceConfig & { log: ReturnType<typeof createMemoryLogger> } {
  return {
    tokenUrl: fake.tokenUrl,
    apiUrl: fake.apiUrl,
    exportBaseUrl: fake.exportBaseUrl,
    allowPrivateHosts: true,
    tokens,
    ...extra,
    log: createMemoryLogger(),
  };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SheetSourceError);
    return (error as Error).message;
  }
  throw new Error("expected a SheetSourceError");
}

describe("parseSheetId", () => {
  test.each([
    ["1AbC-d_9", "1AbC-d_9"],
    ["  1AbC-d_9  ", "1AbC-d_9"],
    ["https://docs.google.com/spreadsheets/d/1AbC-d_9/edit#gid=0", "1AbC-d_9"],
    ["docs.google.com/spreadsheets/d/1AbC-d_9", "1AbC-d_9"],
    ["", undefined],
    [undefined, undefined],
    ["https://example.com/not-a-sheet", undefined],
    ["id with spaces", undefined],
  ])("%p → %p", (input, expected) => {
    expect(parseSheetId(input)).toBe(expected);
  });
});

describe("parseServiceAccountKey", () => {
  test("reads client_email and private_key, real or literal \\n newlines", () => {
    for (const raw of [account.json, account.jsonWithLiteralNewlines]) {
      const credential = parseServiceAccountKey(raw);
      expect(credential.clientEmail).toBe(account.email);
      expect(credential.privateKey).toBe(account.pem);
    }
  });

  test.each([
    "not json",
    "[]",
    JSON.stringify({ client_email: "a@b" }),
    JSON.stringify({ private_key: "-----BEGIN PRIVATE KEY-----" }),
    JSON.stringify({ client_email: "", private_key: "x" }),
  ])("%s → configuration error", (raw) => {
    expect(() => parseServiceAccountKey(raw)).toThrow("Service account configuration error");
  });
});

describe("valuesToCsv", () => {
  test("pads rows to the header width, empties nulls and quotes commas, quotes and newlines", () => {
    expect(valuesToCsv([["A", "B", "C"], ["1"], [null, 2, true], ["x,y", 'say "hi"', "a\r\nb"]])).toBe(
      'A,B,C\n1,,\n,2,true\n"x,y","say ""hi""","a\r\nb"',
    );
  });

  test("no header row is an error", () => {
    expect(() => valuesToCsv([])).toThrow("No data returned from the spreadsheet");
  });
});

describe("service-account strategy", () => {
  test("signs a verifiable RS256 JWT, exchanges it, and reads the values with the bearer token", async () => {
    const cfg = config({ sheetId: "https://docs.google.com/spreadsheets/d/sheet-ok/edit", serviceAccountKey: account.jsonWithLiteralNewlines });
    const tokensBefore = fake.tokenRequests.length;
    const result = await fetchSheetCsv(cfg);
    expect(result).toEqual({ csv: EXPECTED_VALUES_CSV, strategy: "service-account" });
    expect(fake.tokenRequests.slice(tokensBefore)).toEqual([{ iss: account.email, error: undefined }]);
    const seen = fake.valuesRequests.at(-1)!;
    expect(seen.sheetId).toBe("sheet-ok");
    expect(seen.range).toBe("A:Z");
    expect(seen.authorization).toMatch(/^Bearer ya29\.fake-\d+$/);
    const info = cfg.log.lines.map((l) => JSON.parse(l.line));
    expect(info).toEqual([expect.objectContaining({ level: "info", message: "Spreadsheet fetched", context: expect.objectContaining({ strategy: "service-account" }) })]);
  });

  test("uses the configured range", async () => {
    await fetchSheetCsv(config({ sheetId: "sheet-ok", serviceAccountKey: account.json, range: "Events!A1:T500" }));
    expect(fake.valuesRequests.at(-1)!.range).toBe("Events!A1:T500");
  });

  test("caches the token until 60 s before expiry", async () => {
    // The fake verifies exp against the real clock, so start from it.
    const start = Date.now();
    let now = new Date(start);
    const access = { tokenUrl: fake.tokenUrl, apiUrl: fake.apiUrl, now: () => now, tokens };
    const before = fake.tokenRequests.length;
    const first = await getServiceAccountToken(account.json, access);
    now = new Date(start + 3500_000);
    expect(await getServiceAccountToken(account.json, access)).toBe(first);
    expect(fake.tokenRequests.length - before).toBe(1);
    // expires_in is 3599 s: from 3539 s on a new token is fetched.
    now = new Date(start + 3540_000);
    const second = await getServiceAccountToken(account.json, access);
    expect(second).not.toBe(first);
    expect(fake.tokenRequests.length - before).toBe(2);
  });

  test("concurrent callers share one token exchange", async () => {
    const access = { tokenUrl: fake.tokenUrl, apiUrl: fake.apiUrl, tokens };
    const before = fake.tokenRequests.length;
    const answers = await Promise.all([1, 2, 3].map(() => getServiceAccountToken(account.json, access)));
    expect(new Set(answers).size).toBe(1);
    expect(fake.tokenRequests.length - before).toBe(1);
  });

  test("a refused exchange reports status and body, then the public CSV is used", async () => {
    const cfg = config({ sheetId: "sheet-ok", serviceAccountKey: rejected.json });
    const result = await fetchSheetCsv(cfg);
    expect(result).toEqual({ csv: PUBLIC_CSV, strategy: "public-csv" });
    const warning = cfg.log.lines.map((l) => JSON.parse(l.line)).find((l) => l.level === "warn");
    expect(warning.context).toEqual({ strategy: "service-account", reason: expect.stringContaining("Token exchange failed: HTTP 400") });
    expect(warning.context.reason).toContain("Account disabled");
  });

  test("a JWT signed by an unknown key is refused by the provider", async () => {
    const message = await failure(getServiceAccountToken(stranger.json, { tokenUrl: fake.tokenUrl, apiUrl: fake.apiUrl, tokens }));
    expect(message).toContain("Invalid JWT Signature");
    expect(fake.tokenRequests.at(-1)).toEqual({ error: "signature" });
  });

  test("a private key that is not PKCS#8 is a configuration error", async () => {
    const raw = JSON.stringify({ client_email: "x@y", private_key: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----" });
    expect(await failure(getServiceAccountToken(raw, { tokenUrl: fake.tokenUrl, apiUrl: fake.apiUrl, tokens }))).toBe("Service account configuration error");
  });

  test("a sheet without values, a 500 and a timeout are reported per strategy", async () => {
    const cases: [string, string][] = [
      ["sheet-empty", "No data returned from the spreadsheet"],
      ["sheet-500", "Sheets API request failed: HTTP 500"],
      ["sheet-slow", "Sheets API request timed out after 150 ms"],
    ];
    for (const [sheetId, expected] of cases) {
      const message = await failure(
        fetchSheetCsv(config({ sheetId, serviceAccountKey: account.json, remoteCsvUrl: `${fake.base}/csv/500`, timeoutsMs: { values: 150 } })),
      );
      expect(message).toStartWith(`All spreadsheet strategies failed: service-account: ${expected}`);
      expect(message).toEndWith("; public-csv: CSV URL answered HTTP 500");
    }
  });

  test("a bad credential never leaks key material into the error", async () => {
    const raw = JSON.stringify({ client_email: "x@y", private_key: "SECRET-KEY-MATERIAL" });
    const message = await failure(fetchSheetCsv(config({ sheetId: "nope-sheet", serviceAccountKey: raw })));
    expect(message).toBe("All spreadsheet strategies failed: service-account: Service account configuration error; public-csv: CSV URL answered HTTP 404");
    expect(message).not.toContain("SECRET");
  });
});

describe("public-csv strategy", () => {
  test("builds the export URL from the sheet id and range", async () => {
    const result = await fetchSheetCsv(config({ sheetId: "sheet-ok" }));
    expect(result).toEqual({ csv: PUBLIC_CSV, strategy: "public-csv" });
    expect(fake.csvRequests.at(-1)).toBe("/spreadsheets/d/sheet-ok/export?format=csv&range=A%3AZ");
    expect(publicCsvUrl({ sheetId: "abc", log: createMemoryLogger() })).toBe("https://docs.google.com/spreadsheets/d/abc/export?format=csv&range=A%3AZ");
  });

  test("REMOTE_CSV_URL wins over the built URL and may redirect up to 3 times", async () => {
    const result = await fetchSheetCsv(config({ sheetId: "sheet-500", remoteCsvUrl: `${fake.base}/csv/redirect/2` }));
    expect(result.strategy).toBe("public-csv");
    expect(result.csv).toBe(PUBLIC_CSV);
  });

  test.each([
    ["/csv/500", "CSV URL answered HTTP 500"],
    ["/csv/empty", "CSV URL returned an empty body"],
    ["/csv/one-line", "CSV has fewer than 2 lines (a header and at least one row are needed)"],
    ["/csv/html", "CSV URL returned an HTML page, not CSV (is the sheet shared publicly?)"],
    ["/csv/big", `Response is larger than ${5 * 1024 * 1024} bytes`],
    ["/csv/redirect/3", "Too many redirects (more than 3)"],
  ])("%s → %s", async (path, expected) => {
    expect(await failure(fetchSheetCsv(config({ remoteCsvUrl: fake.base + path })))).toBe(`All spreadsheet strategies failed: public-csv: ${expected}`);
  });

  test("times out", async () => {
    const message = await failure(fetchSheetCsv(config({ remoteCsvUrl: `${fake.base}/csv/slow`, timeoutsMs: { csv: 150 } })));
    expect(message).toBe("All spreadsheet strategies failed: public-csv: Request timed out after 150 ms");
  });

  test("without allowPrivateHosts a loopback URL is refused", async () => {
    const before = fake.csvRequests.length;
    const message = await failure(fetchSheetCsv(config({ remoteCsvUrl: `${fake.base}/csv/ok`, allowPrivateHosts: false })));
    expect(message).toBe("All spreadsheet strategies failed: public-csv: Private or loopback hosts are not allowed");
    expect(fake.csvRequests.length).toBe(before);
  });
});

describe("configuration", () => {
  test("nothing configured", async () => {
    for (const extra of [{}, { serviceAccountKey: account.json }, { sheetId: "  ", remoteCsvUrl: "" }]) {
      expect(await failure(fetchSheetCsv(config(extra)))).toBe("Spreadsheet source is not configured");
    }
  });

  test("an unrecognisable sheet id fails the strategies that need it", async () => {
    const message = await failure(fetchSheetCsv(config({ sheetId: "https://example.com/x", serviceAccountKey: account.json })));
    const reason = "Sheet id is not a spreadsheet id or a /spreadsheets/d/<id> URL";
    expect(message).toBe(`All spreadsheet strategies failed: service-account: ${reason}; public-csv: ${reason}`);
  });

  test("describeSheetSource reports strategies and problems without secrets", () => {
    const log = createMemoryLogger();
    expect(describeSheetSource({ log })).toEqual({
      configured: false,
      strategies: [],
      sheetId: null,
      range: "A:Z",
      serviceAccountEmail: null,
      publicCsvSource: null,
      publicCsvHost: null,
      problems: ["Spreadsheet source is not configured"],
    });
    const full = describeSheetSource({ log, sheetId: "https://docs.google.com/spreadsheets/d/abc123/edit", serviceAccountKey: account.json, range: "B:C" });
    expect(full).toEqual({
      configured: true,
      strategies: ["service-account", "public-csv"],
      sheetId: "abc123",
      range: "B:C",
      serviceAccountEmail: account.email,
      publicCsvSource: "sheet-export",
      publicCsvHost: "docs.google.com",
      problems: [],
    });
    expect(JSON.stringify(full)).not.toContain("PRIVATE KEY");
    const csvOnly = describeSheetSource({ log, remoteCsvUrl: "https://docs.google.com/spreadsheets/d/e/2PACX-secret/pub?output=csv" });
    expect(csvOnly).toMatchObject({ configured: true, strategies: ["public-csv"], publicCsvSource: "remote-csv-url", publicCsvHost: "docs.google.com" });
    expect(JSON.stringify(csvOnly)).not.toContain("2PACX-secret");
    expect(describeSheetSource({ log, serviceAccountKey: "{}", remoteCsvUrl: "ftp://x/y" }).problems).toEqual([
      "Service account configuration error",
      "A service-account key is set without a sheet id; it is not used",
      "The CSV URL must use http or https",
    ]);
  });
});
