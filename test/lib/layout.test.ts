// The shape of src/lib (README.md, "Architecture"): its root keeps only the few modules
// nearly everything reads (configuration, logging, clock and Paris time, links, refusal reasons),
// and every other file sits in the folder of its role (http/, serving/, rate-limit/, memo/, the
// domain folders). A folder of one file is a file looking for its neighbours.

import { describe, expect, test } from "bun:test";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const LIB = resolve(import.meta.dir, "../../src/lib");

/** The most source files lib's root may hold; a new one belongs in a folder of its role. */
const MAX_ROOT_FILES = 12;

const isSource = (name: string) => /\.tsx?$/.test(name);

function sourceCount(dir: string): number {
  return readdirSync(dir).reduce((count, name) => {
    const path = join(dir, name);
    return count + (statSync(path).isDirectory() ? sourceCount(path) : isSource(name) ? 1 : 0);
  }, 0);
}

describe("src/lib layout", () => {
  test(`lib's root holds at most ${MAX_ROOT_FILES} source files`, () => {
    const root = readdirSync(LIB).filter((name) => isSource(name) && statSync(join(LIB, name)).isFile());
    expect({ count: root.length, files: root.sort() }).toEqual({ count: Math.min(root.length, MAX_ROOT_FILES), files: root.sort() });
  });

  test("no folder of lib holds a single source file", () => {
    const folders = readdirSync(LIB).filter((name) => statSync(join(LIB, name)).isDirectory());
    const lonely = folders.filter((name) => sourceCount(join(LIB, name)) === 1);
    expect(lonely).toEqual([]);
  });
});
