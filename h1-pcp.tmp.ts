import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { copyFile, cp } from "node:fs/promises";
import { join } from "node:path";
const T = process.argv[2]; const mode = process.argv[3];
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function plan(src: string, dst: string, files: [string, string][]) {
  mkdirSync(dst);
  for (const e of readdirSync(src, { withFileTypes: true })) {
    if (e.isDirectory()) plan(join(src, e.name), join(dst, e.name), files);
    else files.push([join(src, e.name), join(dst, e.name)]);
  }
}
const d = "/tmp/h1pcp-" + process.pid; rmSync(d, { recursive: true, force: true });
const c = cpu(), t = performance.now();
if (mode === "sync") cpSync(T, d, { recursive: true });
else if (mode === "cp") await cp(T, d, { recursive: true });
else { const files: [string, string][] = []; plan(T, d, files); await Promise.all(files.map(([a, b]) => copyFile(a, b))); }
console.log(mode.padEnd(9), "wall", (performance.now() - t).toFixed(0), "cpu", (cpu() - c).toFixed(0));
rmSync(d, { recursive: true, force: true });
