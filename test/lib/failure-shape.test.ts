// The one failure shape of src/lib (src/lib/outcome.ts): a lib function that cannot do what was
// asked returns a `Refused` with a reason, and only the HTTP layer (src/lib/http, src/lib/serving,
// and the api and pages trees above lib) turns a reason into a status, a Response or a thrown HTTP
// error. This test reads every other lib file and fails on an HTTP status number, a `status:` of
// three digits, a `new Response`, a thrown HTTP error class, or a failed outcome (`ok: false`)
// without a reason. The upstream clients below speak to other services' HTTP APIs and read their
// statuses: each is listed with why.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const LIB = resolve(import.meta.dir, "../../src/lib");

/** The HTTP layer inside lib: it maps refusals to statuses and builds responses. */
const HTTP_LAYER = ["http/", "serving/"];

/** Files that call external providers' HTTP (or SMTP) APIs and read the statuses they answer. */
const UPSTREAM_CLIENTS: Readonly<Record<string, string>> = {
  "spreadsheet-import/sheet-source.ts": "fetches the spreadsheet's public CSV export and reads its HTTP status",
  "spreadsheet-import/service-account.ts": "exchanges the service account's token and calls the Sheets API, reading their HTTP statuses (a 401 drops the cached token)",
  "spreadsheet-import/remote-fetch.ts": "the bounded fetch of the import's upstream calls, which reads their HTTP statuses",
  "geocoding/geocoder.ts": "calls the Google Geocoding API and classifies its HTTP statuses (429 is a rate limit, 401/403 a key problem)",
  "mail/worker.ts": "delivers through the SMTP transport and classifies its reply codes (4xx retry, 5xx permanent)",
};

/** Files whose `ok: false` is not a failure a caller answers, with why. */
const NOT_ANSWERED: Readonly<Record<string, string>> = {
  "sheet/dates.ts": "a cell's date reading: its problem becomes a row's quality issue in the sheet report, never an answer",
};

/**
 * Files that still return a failed outcome without a reason, with why. The list may only shrink: a
 * file whose failures all name their reason must leave it, and no file may join it.
 */
const REASONLESS_LEFT: Readonly<Record<string, string>> = {
  "admin/store-operations.ts": "its background jobs' outcomes (jobs.ts JobOutcome) are a job's recorded state, shown on its card, not an answer; the upload's refusal names its reason",
  "auth/sign-in.ts": "test/lib/auth/users.test.ts pins parseSignIn's failure as exactly { ok, field, error }",
  "site/banner.ts": "test/lib/site/banner.test.ts and test/pages/home.test.ts pin the banner's failure as exactly { ok, error }",
  "spreadsheet-import/import.ts": "test/lib/spreadsheet-import/import.test.ts pins importSpreadsheet's failure as exactly { ok, error }",
  "store/backups.ts": "test/lib/store/backups.test.ts pins restoreBackup's failure as exactly { ok, error }",
};

/** Codes that are HTTP statuses wherever they appear; 400 and 500 are common sizes too, so they count only beside a status. */
const STATUS_CODES = /\b(?:401|403|404|405|409|410|413|415|422|429|502|503|504)\b/;
const STATUS_NEAR_CODE = /\bstatus\w*["']?\s*[:=(,]\s*[2-5]\d\d\b/i;
const NEW_RESPONSE = /\bnew Response\s*\(/;
const HTTP_ERROR = /\b(?:throw\s+new\s+\w*Error\b.*\b[1-5]\d\d\b|(?:HttpError|ValidationError|NotFoundError|RefusalError)\b)/;

/**
 * The code of a source file: comments dropped and the text of string literals emptied (a message
 * may say "answers 404" to a reader), lines kept in place for the report.
 */
export function codeOf(text: string): string {
  const blank = (part: string) => part.replace(/[^\n]/g, " ");
  return text
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .split("\n")
    .map((line) => line.replace(/(^|[^:"'`\\])(\/\/.*)$/, (_, before: string, comment: string) => before + blank(comment)))
    .join("\n")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (literal) => literal[0] + blank(literal.slice(1, -1)) + literal[0]);
}

/** The places in one file's code that answer in HTTP terms, as `line: what`. */
export function httpShapes(text: string): string[] {
  const found: string[] = [];
  const lines = text.split("\n");
  codeOf(text)
    .split("\n")
    .forEach((line, i) => {
      const at = `${i + 1}: ${lines[i].trim().slice(0, 140)}`;
      if (STATUS_CODES.test(line) || STATUS_NEAR_CODE.test(line)) found.push(`${at} (an HTTP status)`);
      else if (NEW_RESPONSE.test(line)) found.push(`${at} (a Response)`);
      else if (HTTP_ERROR.test(line)) found.push(`${at} (an HTTP error)`);
    });
  return found;
}

/**
 * The failed outcomes of one file that carry no reason: an `ok: false` whose object (the rest of
 * its literal or type, up to the closing brace) names no `reason`.
 */
export function reasonlessFailures(text: string): string[] {
  const code = codeOf(text);
  const found: string[] = [];
  for (const match of code.matchAll(/ok:\s*false\b/g)) {
    const rest = code.slice(match.index);
    const end = objectEnd(rest);
    const before = code.slice(code.lastIndexOf("{", match.index), match.index);
    if (!/\breason\b/.test(before + rest.slice(0, end))) found.push(`${code.slice(0, match.index).split("\n").length}: ${text.slice(match.index, match.index + Math.min(end, 100)).replace(/\s+/g, " ")}`);
  }
  return found;
}

/** Where the object a match sits in closes: the first unbalanced `}`. */
function objectEnd(rest: string): number {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return rest.length;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The lib files under the rule: all but the HTTP layer and the upstream clients. */
function domainFiles(): string[] {
  return sourceFiles(LIB)
    .map((path) => relative(LIB, path))
    .filter((path) => !HTTP_LAYER.some((folder) => path.startsWith(folder)) && !(path in UPSTREAM_CLIENTS))
    .sort();
}

describe("lib's failure shape", () => {
  test("the detectors find a status table, a Response, a thrown HTTP error and a reasonless failure, and pass a refusal", () => {
    expect(httpShapes(`export const LINK_STATUS = { notFound: 404, tokenRequired: 400 };`)).toHaveLength(1);
    expect(httpShapes(`return { status: 400, body };`)).toHaveLength(1);
    expect(httpShapes(`return new Response("x");`)).toHaveLength(1);
    expect(httpShapes(`throw new ValidationError("Bad", []);`)).toHaveLength(1);
    expect(httpShapes(`throw new HttpError(503, "Down");`)).toHaveLength(1);
    expect(httpShapes(`const MAX = 500; // a 404 in a comment\n/* answers 409 */ x.slice(0, 512);`)).toEqual([]);
    expect(httpShapes(`return refused("not_found", "Missing");`)).toEqual([]);
    expect(reasonlessFailures(`return { ok: false, error: "Nothing here" };`)).toHaveLength(1);
    expect(reasonlessFailures(`type R = { ok: true } | { ok: false; error: string };`)).toHaveLength(1);
    expect(reasonlessFailures(`return { ok: false, reason: "invalid", error: "Bad" };`)).toEqual([]);
    expect(reasonlessFailures(`type R = { ok: false; reason: Refusal; error: string };`)).toEqual([]);
  });

  test("every upstream client listed still exists", () => {
    const missing = Object.keys(UPSTREAM_CLIENTS).filter((path) => !sourceFiles(LIB).includes(join(LIB, path)));
    expect(missing).toEqual([]);
  });

  test("no lib file outside the HTTP layer and the upstream clients answers in HTTP terms", () => {
    const offenders = Object.fromEntries(domainFiles().map((path) => [path, httpShapes(readFileSync(join(LIB, path), "utf8"))]).filter(([, found]) => found.length > 0));
    expect(offenders).toEqual({});
  });

  test("every failed outcome in lib outside the HTTP layer names its reason (the files still left aside only shrink)", () => {
    const found = Object.fromEntries(domainFiles().filter((path) => !(path in NOT_ANSWERED)).map((path) => [path, reasonlessFailures(readFileSync(join(LIB, path), "utf8"))]).filter(([, failures]) => failures.length > 0));
    const offenders = Object.fromEntries(Object.entries(found).filter(([path]) => !(path in REASONLESS_LEFT)));
    expect(offenders).toEqual({});
    expect(Object.keys(REASONLESS_LEFT).filter((path) => !(path in found))).toEqual([]);
  });
});
