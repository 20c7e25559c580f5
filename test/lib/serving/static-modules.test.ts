// Imports between the browser modules (src/lib/serving/static-modules.ts and fingerprintScripts):
// each relative import is renamed to the fingerprinted file it names, and a change in an imported
// file changes the name of every file above it, so a page never pairs a new script with a stale
// import from a year-long cache.

import { describe, expect, test } from "bun:test";
import { fingerprintScripts } from "../../../src/lib/serving/static-assets.ts";
import { importOrder, moduleImports, rewriteImports } from "../../../src/lib/serving/static-modules.ts";

const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
const text = (data: Uint8Array) => new TextDecoder().decode(data);

function build(files: Record<string, string>) {
  return new Map(fingerprintScripts(new Map(Object.entries(files).map(([path, source]) => [path, bytes(source)]))).map((asset) => [asset.path, asset]));
}

const FILES = {
  "entry.js": 'import { a } from "./parts/a.js";\nimport "./parts/b.js";\nexport { c } from "./parts/c.js";\na();\n',
  "parts/a.js": 'import { leaf } from "./leaf.js";\nexport function a() { return leaf; }\n',
  "parts/b.js": 'import * as up from "../shared.js";\nvoid up;\n',
  "parts/c.js": "export const c = 1;\n",
  "parts/leaf.js": 'export const leaf = "./not-an-import.js";\n',
  "shared.js": "export const shared = 2;\n",
  "classic.js": '(function () { var s = "./x.js"; })();\n',
};

describe("the imports of a module", () => {
  test("relative import and re-export specifiers, resolved against the importer's folder", () => {
    expect(moduleImports("entry.js", FILES["entry.js"]).map((i) => [i.specifier, i.path])).toEqual([
      ["./parts/a.js", "parts/a.js"],
      ["./parts/b.js", "parts/b.js"],
      ["./parts/c.js", "parts/c.js"],
    ]);
    expect(moduleImports("parts/b.js", FILES["parts/b.js"]).map((i) => i.path)).toEqual(["shared.js"]);
  });
  test("strings that only look like paths, bare names and URLs are not imports", () => {
    expect(moduleImports("parts/leaf.js", FILES["parts/leaf.js"])).toEqual([]);
    expect(moduleImports("classic.js", FILES["classic.js"])).toEqual([]);
    expect(moduleImports("x.js", 'import x from "leaflet";\nimport y from "https://example.com/y.js";\n')).toEqual([]);
  });
  test("an import list over several lines", () => {
    expect(moduleImports("x.js", 'import {\n  one,\n  two,\n} from "./y.js";\n').map((i) => i.path)).toEqual(["y.js"]);
  });
  test("rewriting replaces the specifiers only", () => {
    const source = FILES["entry.js"];
    expect(rewriteImports(source, moduleImports("entry.js", source), (i) => i.specifier.toUpperCase())).toBe(source.replace("./parts/a.js", "./PARTS/A.JS").replace("./parts/b.js", "./PARTS/B.JS").replace("./parts/c.js", "./PARTS/C.JS"));
  });
});

describe("fingerprinted modules", () => {
  test("each import names the fingerprinted file, in the same folder as written", () => {
    const built = build(FILES);
    const entry = text(built.get("entry.js")!.identity);
    expect(entry).toContain(`from "./parts/${built.get("parts/a.js")!.hashedPath.slice("parts/".length)}"`);
    expect(entry).toContain(`import "./parts/${built.get("parts/b.js")!.hashedPath.slice("parts/".length)}"`);
    expect(text(built.get("parts/b.js")!.identity)).toContain(`from "../${built.get("shared.js")!.hashedPath}"`);
    expect(built.get("entry.js")!.imports).toEqual(["parts/a.js", "parts/b.js", "parts/c.js"]);
    // A file without imports is served as it is.
    expect(text(built.get("classic.js")!.identity)).toBe(FILES["classic.js"]);
  });

  test("a change in an imported file renames every file above it, and only those", () => {
    const before = build(FILES);
    const after = build({ ...FILES, "parts/leaf.js": 'export const leaf = "changed";\n' });
    const renamed = [...before.keys()].filter((path) => before.get(path)!.hashedPath !== after.get(path)!.hashedPath).sort();
    expect(renamed).toEqual(["entry.js", "parts/a.js", "parts/leaf.js"]);
  });

  test("an import of a file that is not there, or a cycle, refuses the start", () => {
    expect(() => build({ "a.js": 'import "./missing.js";\n' })).toThrow("static/a.js imports static/missing.js, which is not a static script");
    expect(() => build({ "a.js": 'import "./b.js";\n', "b.js": 'import "./a.js";\n' })).toThrow("static modules import each other in a cycle: a.js → b.js → a.js");
  });

  test("the order puts each module after the ones it imports", () => {
    const order = importOrder(
      new Map([
        ["entry.js", ["parts/a.js", "shared.js"]],
        ["parts/a.js", ["shared.js"]],
        ["shared.js", []],
      ]),
    );
    expect(order).toEqual(["shared.js", "parts/a.js", "entry.js"]);
  });
});
