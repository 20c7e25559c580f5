// Lint of the Dockerfile's instructions (this machine has no container engine to build it): the
// rules a reviewer would check by hand, read from the file itself. The same install and start
// steps are run outside a container by test/process/dockerfile-steps.test.ts.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dockerignore, envPairs, execForm, readInstructions, readStages, ROOT } from "../helpers/dockerfile.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
const stages = readStages();
const runtime = stages.at(-1)!;
const all = (keyword: string, stage = runtime) => stage.instructions.filter((i) => i.keyword === keyword);

describe("Dockerfile", () => {
  test("only known instructions, each base image pinned to a version tag", () => {
    const known = new Set(["FROM", "WORKDIR", "COPY", "RUN", "ENV", "USER", "EXPOSE", "HEALTHCHECK", "CMD", "ARG", "LABEL"]);
    for (const instruction of readInstructions()) expect(known.has(instruction.keyword)).toBe(true);
    for (const stage of stages) expect(stage.image).toMatch(/^[\w./-]+:(?!latest$)[\w.-]+$/);
  });

  test("the runtime image is the Bun the lockfile pins", () => {
    expect(runtime.image).toBe(`oven/bun:${pkg.devDependencies.bun}-slim`);
  });

  test("dependencies are installed from the lockfile with npm ci, copied in before the sources", () => {
    const installs = stages.flatMap((stage) => all("RUN", stage).map((run) => ({ stage, run })));
    const npmCi = installs.filter(({ run }) => /\bnpm ci\b/.test(run.args));
    expect(npmCi).toHaveLength(1);
    // No other installer that could resolve versions of its own.
    for (const { run } of installs) expect(run.args).not.toMatch(/\b(npm (install|i)|bun (install|add)|yarn|pnpm)\b/);
    const { stage, run } = npmCi[0]!;
    const copies = all("COPY", stage).filter((copy) => copy.line < run.line);
    expect(copies.some((copy) => copy.args.split(/\s+/).includes("package-lock.json"))).toBe(true);
    expect(existsSync(join(ROOT, "package-lock.json"))).toBe(true);
    // The runtime stage takes the installed folder from that stage.
    if (stage !== runtime) expect(all("COPY").some((copy) => copy.args.startsWith(`--from=${stage.name} `) && copy.args.includes("node_modules"))).toBe(true);
  });

  test("a HEALTHCHECK asks the liveness endpoint with a timeout, in exec form", () => {
    const checks = all("HEALTHCHECK");
    expect(checks).toHaveLength(1);
    const check = checks[0]!.args;
    expect(check).toMatch(/--timeout=\d+s/);
    expect(check).toMatch(/--interval=\d+s/);
    const command = execForm(check.slice(check.indexOf("CMD ") + 4));
    expect(command?.[0]).toBe("bun");
    expect(command?.join(" ")).toContain("/api/health");
  });

  test("starts as `npm start` does, as a non-root user, on the port it exposes", () => {
    const cmd = all("CMD");
    expect(cmd).toHaveLength(1);
    expect(execForm(cmd[0]!.args)?.join(" ")).toBe(pkg.scripts.start);
    const users = all("USER");
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
    expect(users.at(-1)!.line).toBeLessThan(cmd[0]!.line);
    const env = Object.assign({}, ...all("ENV").map((i) => envPairs(i.args))) as Record<string, string>;
    expect(env.NODE_ENV).toBe("production");
    expect(all("EXPOSE").map((i) => i.args)).toContain(env.PORT);
  });

  test("the build context leaves out node_modules and the local data folder", () => {
    const ignored = dockerignore();
    expect(ignored).toContain("node_modules");
    expect(ignored).toContain(".data");
  });
});
