// Writes the web app icons (static/icons/*.png) from the favicon's drawing, rasterised with resvg
// (already a dependency for the preview images). Run after changing static/favicon.svg:
//   bun scripts/make-icons.ts
// The PNGs are committed: the server only reads them, like every other static file.

import { Resvg } from "@resvg/resvg-js";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const favicon = readFileSync(`${ROOT}static/favicon.svg`, "utf8");
// The note glyph of the favicon (32×32 drawing) and its background colour.
const glyph = /<path d="([^"]+)" fill="([^"]+)"/.exec(favicon);
const background = /fill="(#[0-9a-f]{6})"/i.exec(favicon);
if (!glyph || !background) throw new Error("static/favicon.svg does not have the expected shape");

/** "any" icons keep the favicon's rounded square; maskable and Apple icons fill the square and keep the glyph in the middle 60 %. */
function drawing(kind: "any" | "full"): string {
  const inner = kind === "any" ? `<rect width="32" height="32" rx="8" fill="${background![1]}"/><path d="${glyph![1]}" fill="${glyph![2]}"/>` : `<rect width="32" height="32" fill="${background![1]}"/><g transform="translate(16 16) scale(0.72) translate(-14.5 -15.5)"><path d="${glyph![1]}" fill="${glyph![2]}"/></g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${inner}</svg>`;
}

const ICONS: Array<{ file: string; size: number; kind: "any" | "full" }> = [
  { file: "icon-192.png", size: 192, kind: "any" },
  { file: "icon-512.png", size: 512, kind: "any" },
  { file: "icon-maskable-512.png", size: 512, kind: "full" },
  { file: "apple-touch-icon.png", size: 180, kind: "full" },
];

mkdirSync(`${ROOT}static/icons`, { recursive: true });
for (const icon of ICONS) {
  const png = new Resvg(drawing(icon.kind), { fitTo: { mode: "width", value: icon.size } }).render().asPng();
  writeFileSync(`${ROOT}static/icons/${icon.file}`, png);
  console.log(`static/icons/${icon.file}: ${icon.size}×${icon.size}, ${png.byteLength} bytes`);
}
