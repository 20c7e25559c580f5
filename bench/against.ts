// Runs these benchmarks against another checkout's service, so two versions are measured by the
// same harness on the same machine: `bun bench/against.ts <checkout> [filter]` (the filter as for
// `npm run bench -- <filter>`). This bench folder is copied into <checkout>/.bench-against/ (a
// folder at the same depth as bench/, so its relative imports of src/ and test/ reach that
// checkout's files), and an import of a module that the checkout has under its former name is
// pointed there: the renames come from git, between the checkout's commit and this one. The copy
// is removed afterwards; nothing in the checkout is changed or committed.

import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const HERE = import.meta.dir;
const OWN_ROOT = join(HERE, "..");

/** Files this checkout has renamed since `commit` (new path → former path), from git. */
function renamesSince(commit: string): Map<string, string> {
  const run = Bun.spawnSync(["git", "diff", "-M", "--name-status", "--diff-filter=R", commit, "HEAD", "--", "src", "test"], { cwd: OWN_ROOT });
  const renames = new Map<string, string>();
  if (run.exitCode !== 0) return renames;
  for (const line of run.stdout.toString().split("\n")) {
    const [status, from, to] = line.split("\t");
    if (status?.startsWith("R") && from && to) renames.set(to, from);
  }
  return renames;
}

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
}

/** Points the copy's imports of the checkout's modules at the names that checkout has; lists those it lacks. */
function adaptImports(copy: string, checkout: string, renames: Map<string, string>): string[] {
  const missing: string[] = [];
  for (const file of sources(copy)) {
    const text = readFileSync(file, "utf8");
    const adapted = text.replace(/(from\s+|import\s*\(\s*)(["'])(\.\.?\/[^"']+)\2/g, (whole, lead: string, quote: string, specifier: string) => {
      const target = resolve(dirname(file), specifier);
      const inCheckout = relative(checkout, target);
      if (inCheckout.startsWith("..") || inCheckout.startsWith(".bench-against") || existsSync(target)) return whole;
      const former = renames.get(inCheckout);
      if (!former || !existsSync(join(checkout, former))) {
        missing.push(`${relative(copy, file)}: ${specifier}`);
        return whole;
      }
      let pointed = relative(dirname(file), join(checkout, former));
      if (!pointed.startsWith(".")) pointed = `./${pointed}`;
      return `${lead}${quote}${pointed}${quote}`;
    });
    if (adapted !== text) writeFileSync(file, adapted);
  }
  return missing;
}

const [target, filter] = process.argv.slice(2);
if (!target) {
  console.error("usage: bun bench/against.ts <checkout> [filter]");
  process.exit(2);
}
const checkout = resolve(target);
if (!existsSync(join(checkout, "src/index.ts")) || !existsSync(join(checkout, "node_modules"))) {
  console.error(`${checkout}: no src/index.ts or node_modules (run npm ci there first)`);
  process.exit(2);
}
const commit = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: checkout }).stdout.toString().trim();
const copy = join(checkout, ".bench-against");
rmSync(copy, { recursive: true, force: true });
cpSync(HERE, copy, { recursive: true });
let code = 1;
try {
  const missing = adaptImports(copy, checkout, commit ? renamesSince(commit) : new Map());
  if (missing.length > 0) {
    console.error(`bench/against.ts: ${checkout} (${commit.slice(0, 7) || "no git"}) has no module for:\n  ${missing.join("\n  ")}`);
  } else {
    console.log(`benchmarks of ${checkout} at ${commit.slice(0, 7) || "?"}, harness of ${OWN_ROOT}`);
    const proc = Bun.spawn([process.execPath, join(copy, "run.ts"), ...(filter ? [filter] : [])], { cwd: checkout, stdout: "inherit", stderr: "inherit", env: process.env });
    code = await proc.exited;
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}
process.exit(code);
