// A small reader of the project's Dockerfile for its lint test and the test that runs its steps
// outside a container: instructions with continuation lines joined and comments dropped, grouped
// by build stage.

import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");

export interface Instruction {
  /** Upper-case keyword: FROM, RUN, COPY, ENV, HEALTHCHECK, … */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  args: string;
  line: number;
}

export interface Stage {
  /** The image of its FROM line. */
  image: string;
  /** The `AS <name>` of its FROM line, if any. */
  name?: string;
  instructions: Instruction[];
}

/** The Dockerfile's instructions, in order. */
export function readInstructions(text = readFileSync(join(ROOT, "Dockerfile"), "utf8")): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (!pending && (line === "" || line.startsWith("#"))) return;
    if (pending && line.startsWith("#")) return;
    const continued = line.endsWith("\\");
    const part = continued ? line.slice(0, -1).trim() : line;
    pending = pending ? { text: `${pending.text} ${part}`, line: pending.line } : { text: part, line: index + 1 };
    if (continued) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text)!;
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim(), line: pending.line });
    pending = undefined;
  });
  return instructions;
}

/** The instructions grouped by stage (each starts at a FROM). */
export function readStages(instructions = readInstructions()): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const [image, as, name] = instruction.args.split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      if (stages.length === 0) throw new Error(`${instruction.keyword} before any FROM (line ${instruction.line})`);
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

/** `ENV a=1 b=2` (or the legacy `ENV a 1`) as pairs. */
export function envPairs(args: string): Record<string, string> {
  if (!args.includes("=")) {
    const [name, ...value] = args.split(/\s+/);
    return { [name!]: value.join(" ") };
  }
  const pairs: Record<string, string> = {};
  for (const pair of args.match(/\S+=("[^"]*"|\S*)/g) ?? []) {
    const at = pair.indexOf("=");
    pairs[pair.slice(0, at)] = pair.slice(at + 1).replace(/^"(.*)"$/, "$1");
  }
  return pairs;
}

/** The JSON (exec) form of CMD or HEALTHCHECK … CMD, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const json = args.slice(args.indexOf("["));
  if (!args.includes("[")) return undefined;
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) && parsed.every((part) => typeof part === "string") ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The .dockerignore patterns. */
export function dockerignore(): string[] {
  return readFileSync(join(ROOT, ".dockerignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
