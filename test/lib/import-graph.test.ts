// The import graph of src: no cycle between the folders of src/lib or of src/pages (a file at the
// root of a tree counts as its own node), no cycle between the top-level parts of src, no cycle
// between files, and lib never reaches into the app layer (deps.ts, app.ts, pages, api, tasks).

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
const LIB = join(SRC, "lib");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a file (static, re-exports, type-only and dynamic), resolved to paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specifiers.map((s) => resolve(dirname(file), s));
}

/** The node of a path under `base`: its first folder, or the file itself at the root. */
function nodeOf(base: string, path: string): string {
  const parts = relative(base, path).split("/");
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

type Graph = Map<string, Map<string, string>>;

/** Folder graph of the files under `base`; each edge keeps one example import for the message. */
function folderGraph(base: string): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(base)) {
    for (const target of importsOf(file)) {
      if (!target.startsWith(`${base}/`)) continue;
      const from = nodeOf(base, file);
      const to = nodeOf(base, target);
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan). */
export function cycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])]);
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** Each cycle with the imports that close it, for a readable failure. */
function describeCycles(graph: Graph): string[] {
  return cycles(graph).map((component) => {
    const edges = component.flatMap((from) => [...(graph.get(from) ?? [])].filter(([to]) => component.includes(to)).map(([, example]) => example));
    return `${component.join(" ↔ ")}: ${edges.join("; ")}`;
  });
}

/** The graph of the files under `base` themselves (an edge per file importing another). */
function fileGraph(base: string): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(base)) {
    const from = relative(SRC, file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(`${base}/`) || target === file) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(relative(SRC, target), `${from} → ${relative(SRC, target)}`);
    }
  }
  return graph;
}

describe("import graph", () => {
  test("the cycle finder reports a two-folder cycle and ignores a chain", () => {
    const graph = (edges: [string, string][]): Graph => {
      const g: Graph = new Map();
      for (const [a, b] of edges) g.set(a, (g.get(a) ?? new Map()).set(b, `${a}→${b}`));
      return g;
    };
    expect(cycles(graph([["events/", "geocoding/"], ["geocoding/", "events/"], ["sheet/", "events/"]]))).toEqual([["events/", "geocoding/"]]);
    expect(cycles(graph([["a/", "b/"], ["b/", "c/"]]))).toEqual([]);
  });

  test("no cycle between the folders of src/lib", () => {
    expect(describeCycles(folderGraph(LIB))).toEqual([]);
  });

  test("no cycle between the folders of src/pages (shared views in components/ never reach back into a page)", () => {
    expect(describeCycles(folderGraph(join(SRC, "pages")))).toEqual([]);
  });

  test("no cycle between the parts of src (lib, pages, api, tasks and the root files)", () => {
    expect(describeCycles(folderGraph(SRC))).toEqual([]);
  });

  test("no cycle between the files of src, dynamic imports included (each module loads after what it imports)", () => {
    expect(describeCycles(fileGraph(SRC))).toEqual([]);
  });

  test("lib imports nothing from the app layer", () => {
    const appLayer = ["deps.ts", "app.ts", "index.ts", "pages/", "api/", "tasks/"].map((p) => join(SRC, p));
    const reaching = sourceFiles(LIB).flatMap((file) =>
      importsOf(file)
        .filter((target) => appLayer.some((p) => (p.endsWith("/") ? target.startsWith(p) : target === p)))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
    expect(reaching).toEqual([]);
  });
});
