// The service's source files for the structural tests: each file of src/ with its path from src/
// and its code without comments (prose may name what the code must not spell).

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const SRC = join(import.meta.dir, "../../src");

export interface SourceFile {
  /** Path from src/, with forward slashes ("lib/db/locks.ts"). */
  path: string;
  text: string;
  /** The text with its comments blanked: block comments, whole-line and trailing `//` comments. */
  code: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Blanks comments, keeping the line count (a trailing comment is one after code and a space). */
export function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) => (/^\s*\/\//.test(line) ? "" : line.replace(/\s\/\/\s.*$/, "")))
    .join("\n");
}

/** Every TypeScript file under src/. */
export function sourceFiles(): SourceFile[] {
  return walk(SRC).map((file) => {
    const text = readFileSync(file, "utf8");
    return { path: relative(SRC, file).split("\\").join("/"), text, code: withoutComments(text) };
  });
}
