// Per-process state lives in Deps (README.md, "Architecture"): a module's top level may keep only
// constants and pure memos, whose answer depends on nothing but their key (a parsed format, a
// derived index of one immutable event list, a file shipped with the product read once). A cache
// that a request writes into and another reads back, a token, a counter or a table of clients
// belongs in buildDeps, where each app (and each test's app) gets its own.
//
// The test reads every source file with the TypeScript parser and lists each top-level `let`, each
// top-level container built with `new Map/Set/WeakMap/WeakSet/AsyncLocalStorage` (unless its type
// says it is read-only), and each top-level memo (memoised, memoisedPerObject, memoisedWhenRepeated).
// Every one must be on the list below with the reason it is not per-process state; a new one either
// earns a reason here or moves to Deps.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const SRC = resolve(import.meta.dir, "../../src");

const PER_EVENT_LIST = "a pure memo keyed by one immutable event list (a new publish is a new list), dropped with it";

/** `file:name` → why this module-level value is not per-process state. */
const ALLOWED: Readonly<Record<string, string>> = {
  "api/events.ts:eventsListRequest": "a bounded memo of URL text → the parsed list request, a pure function of the URL",
  "lib/admin/sheet-readings.ts:DATE_FORMATS": "Intl formatters by locale and options: pure, built once each",
  "lib/admin/sheet-readings.ts:PRICE_FORMATS": "Intl formatters by currency: pure, built once each",
  "lib/sheet/dates.ts:VALID_ISO_DATES": "a memo of date text → whether it is a real calendar date, pure",
  "lib/paris-time.ts:formats": "Intl formatters by option set: pure, built once each",
  "lib/paris-time.ts:INSTANTS": "a memo of Paris wall-clock text → epoch ms, pure (the time-zone rules are fixed for the process)",
  "lib/paris-time.ts:lastMinute": "a one-entry memo of the Paris date of the last minute asked for, with lastDate",
  "lib/paris-time.ts:lastDate": "the answer of the one-entry memo keyed by lastMinute",
  "lib/og/fonts.ts:loaded": "the fonts shipped with the product, read from disk once",
  "lib/geocoding/arrondissement-outlines.ts:outlines": "the arrondissement outlines shipped with the product, parsed once",
  "lib/serving/static-assets.ts:loaded": "the files under static/ with their fingerprints, read once at start (they do not change while the process runs)",
  "lib/db/pglite-boot.ts:loading": "the embedded database's boot files shipped in node_modules, read once",
  "lib/events/filter-links.ts:lastSearch": "a one-entry memo of search text → its encoded query parameter, pure",
  "lib/events/filter-links.ts:NEXT_QUERIES": "a bounded memo of (filter state, change) → the canonical query text, pure",
  "lib/events/filter-moment.ts:SPANS": "a memo of moment text → its time span, pure",
  "lib/events/search.ts:entries": "a memo keyed by one immutable event → its folded search text per language",
  "lib/events/search.ts:indexesOf": PER_EVENT_LIST,
  "lib/events/search.ts:typoMeaning": "a bounded memo of query text → its spelling-tolerant meaning, pure",
  "lib/events/projections.ts:origins": "links a projected event object to the event it was made from; keyed by the object, dropped with it",
  "lib/events/filter-match.ts:passingByState": PER_EVENT_LIST,
  "lib/events/filter-match.ts:quickDates": PER_EVENT_LIST,
  "lib/events/filter-match.ts:datesByCount": PER_EVENT_LIST,
  "lib/events/pipeline.ts:validityOf": PER_EVENT_LIST,
  "lib/events/pipeline.ts:qualityOf": PER_EVENT_LIST,
  "lib/events/pipeline.ts:savedProjectionOf": PER_EVENT_LIST,
  "lib/events/festival-window.ts:listedEventsSpan": PER_EVENT_LIST,
  "lib/events/editions.ts:BY_EDITION": "a pure memo keyed by one immutable event list: its events per edition year, dropped with the list",
  "lib/geocoding/coordinates.ts:venuesOfList": PER_EVENT_LIST,
  "lib/serving/render-cache.ts:missHeadsKept": "header sets keyed by a cache policy object (a constant) and encoding: pure, a handful in all",
  "lib/serving/compression.ts:encodingOf": "a bounded memo of Accept-Encoding text → the encoding chosen, pure",
  "lib/db/write-deadline.ts:deadlines": "each request's own write deadline, keyed by the Request object and gone with it: request state, not process state",
  "lib/i18n/index.ts:current": "the language of the request being served (AsyncLocalStorage): request state carried down the call, not shared between requests",
  "lib/i18n/index.ts:pluralRules": "Intl plural rules by language: pure, built once each",
  "lib/i18n/index.ts:numberFormats": "Intl number formats by language: pure, built once each",
  "lib/i18n/index.ts:moneyFormats": "Intl currency formats by language and currency: pure, built once each",
  "lib/i18n/index.ts:dayLabels": "a bounded memo of (language, date) → the day's label, pure",
  "lib/i18n/index.ts:dayRangeLabels": "a bounded memo of (language, dates) → the range's label, pure",
  "lib/client-ip.ts:matchers": "the compiled matcher of one trusted-proxy list (a config value), keyed by that list",
  "pages/home/listing.ts:PAID_COPIES": "the paid-placement copy of an event within one immutable list, keyed by both objects",
  "pages/home/listing.ts:spotlightBookings": PER_EVENT_LIST,
  "pages/home/listing.ts:seriesOf": PER_EVENT_LIST,
  "pages/home/fast/home-request.ts:resolvePlain": "a bounded memo of URL text → the parsed homepage request, pure",
  "pages/home/fast/home-request.ts:resolveHtmx": "a bounded memo of URL text → the parsed fragment request, pure",
  "pages/home/fast/render-context.ts:changeInstantsOf": PER_EVENT_LIST,
  "pages/home/fast/kept-views.ts:keptPerList":
    "the rendered cards, chips and templates of one immutable event list for one stretch of the clock (and the scratch buffers of its transient fragments), dropped with the list; the render-context property test pins that each output is a function of its key",
};

const CONTAINERS = new Set(["Map", "Set", "WeakMap", "WeakSet", "AsyncLocalStorage"]);
const MEMOS = new Set(["memoised", "memoisedPerObject", "memoisedWhenRepeated"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function isReadonlyType(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  const text = type.getText();
  return /^Readonly(Map|Set)\b/.test(text);
}

function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** What kind of state a top-level declaration holds, or undefined for a constant. */
function stateKind(declaration: ts.VariableDeclaration, mutable: boolean): string | undefined {
  if (mutable) return "let";
  const init = declaration.initializer;
  if (!init) return undefined;
  if (ts.isNewExpression(init)) {
    const name = calleeName(init.expression);
    if (name && CONTAINERS.has(name) && !isReadonlyType(declaration.type)) return `new ${name}`;
  }
  if (ts.isCallExpression(init)) {
    const name = calleeName(init.expression);
    if (name && MEMOS.has(name)) return name;
  }
  return undefined;
}

/** Every top-level piece of state in src, as `file:name` → its kind. */
function moduleState(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of sourceFiles(SRC)) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const mutable = (statement.declarationList.flags & ts.NodeFlags.Const) === 0;
      for (const declaration of statement.declarationList.declarations) {
        const kind = stateKind(declaration, mutable);
        if (kind && ts.isIdentifier(declaration.name)) found.set(`${relative(SRC, path)}:${declaration.name.text}`, kind);
      }
    }
  }
  return found;
}

describe("module-scope state", () => {
  const found = moduleState();

  test("every top-level let, mutable container and memo in src is a listed pure memo or request state", () => {
    const unlisted = [...found].filter(([key]) => !(key in ALLOWED)).map(([key, kind]) => `${key} (${kind})`);
    expect(unlisted).toEqual([]);
  });

  test("the list names nothing that is gone (so it stays an honest count)", () => {
    const stale = Object.keys(ALLOWED).filter((key) => !found.has(key));
    expect(stale).toEqual([]);
  });

  test("the scan sees state when a module declares it", () => {
    // The parser's view of a few shapes, so a change in how declarations are read cannot empty the scan.
    const probe = ts.createSourceFile(
      "probe.ts",
      "let a = 1; const b = new Map(); const c: ReadonlySet<string> = new Set(); const d = memoised(1, f); const e = 2;",
      ts.ScriptTarget.Latest,
      true,
    );
    const kinds = probe.statements.filter(ts.isVariableStatement).map((statement) => {
      const mutable = (statement.declarationList.flags & ts.NodeFlags.Const) === 0;
      return stateKind(statement.declarationList.declarations[0]!, mutable) ?? null;
    });
    expect(kinds).toEqual(["let", "new Map", null, "memoised", null]);
  });
});
