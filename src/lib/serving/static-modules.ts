// Imports between the browser modules under static/ (see docs/public-pages.md, "Static files"). A
// module's relative import ("./sheet-editor/clipboard.js") would load the plain address, which is
// cached for an hour and never kept offline; so when the files are read at start, each specifier is
// rewritten to the fingerprinted name of the file it names ("./sheet-editor/clipboard.3f9c2a1b.js").
// Modules are fingerprinted after the modules they import, so a change in an imported file changes
// the name of every file that imports it, up to the script the page links.

import { posix } from "node:path";

/** One relative import specifier in a module's source, and where it stands. */
export interface ModuleImport {
  /** As written: "./clipboard.js". */
  specifier: string;
  /** The file it names, as a path under static/: "sheet-editor/clipboard.js". */
  path: string;
  /** Offsets of the specifier's text (without its quotes) in the source. */
  start: number;
  end: number;
}

// `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"` at the start of a line:
// the forms the browser modules use. Bare names and URLs are not static files and are left alone.
const IMPORT = /^[ \t]*(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)(["'])(\.\.?\/[^"'\n]+)\1/gm;

/** The relative imports of a module at `path` (a path under static/, "sheet-editor.js"). */
export function moduleImports(path: string, source: string): ModuleImport[] {
  const found: ModuleImport[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[2]!;
    const end = match.index + match[0].length - 1;
    const target = posix.normalize(posix.join(posix.dirname(path), specifier));
    found.push({ specifier, path: target, start: end - specifier.length, end });
  }
  return found;
}

/**
 * The module's source with each import's specifier replaced by `rename(import)` (the same folder,
 * the fingerprinted file name).
 */
export function rewriteImports(source: string, imports: readonly ModuleImport[], rename: (found: ModuleImport) => string): string {
  let out = "";
  let at = 0;
  for (const found of imports) {
    out += source.slice(at, found.start) + rename(found);
    at = found.end;
  }
  return out + source.slice(at);
}

/**
 * The modules in an order where each comes after every module it imports. Throws on an import of
 * a file that is not there or on a cycle: a start with a broken module graph is refused, rather
 * than a page that fails in the browser.
 */
export function importOrder(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (path: string, trail: string[]) => {
    if (state.get(path) === "done") return;
    if (state.get(path) === "visiting") throw new Error(`static modules import each other in a cycle: ${[...trail, path].join(" → ")}`);
    state.set(path, "visiting");
    for (const target of imports.get(path) ?? []) {
      if (!imports.has(target)) throw new Error(`static/${path} imports static/${target}, which is not a static script`);
      visit(target, [...trail, path]);
    }
    state.set(path, "done");
    order.push(path);
  };
  for (const path of [...imports.keys()].sort()) visit(path, []);
  return order;
}
