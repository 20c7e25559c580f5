// Fonts of the link-preview image, read once at startup: DM Serif Display (titles) and DM Sans
// (everything else) shipped with the project through @fontsource, Latin and Latin Extended subsets.
// Missing files fall back to the host's serif and sans (DejaVu, Liberation), and DejaVu Sans, when
// present, also draws glyphs our fonts lack (Greek, Cyrillic).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A font as satori takes it. */
export interface OgFont {
  name: string;
  data: Buffer;
  weight: 400 | 600 | 700;
  style: "normal";
}

/** The font families the layout names; satori tries the loaded fonts in order for missing glyphs. */
export const OG_DISPLAY_FAMILY = "Display, Display Ext, Sans, Sans Ext, Fallback Serif, Fallback Sans";
export const OG_SANS_FAMILY = "Sans, Sans Ext, Fallback Sans, Fallback Serif";

interface FontSource {
  name: string;
  weight: OgFont["weight"];
  /** Candidate files, first readable wins. */
  files: string[];
}

const NODE_MODULES = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
const bundled = (path: string) => NODE_MODULES + path;
const SYSTEM_SERIF = ["/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"];
const SYSTEM_SANS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"];
const SYSTEM_SANS_BOLD = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"];

// Each subset has a family name of its own: satori keeps one font per name and weight, so two
// subsets under one name would hide each other.
const SOURCES: FontSource[] = [
  { name: "Display", weight: 400, files: [bundled("@fontsource/dm-serif-display/files/dm-serif-display-latin-400-normal.woff")] },
  { name: "Display Ext", weight: 400, files: [bundled("@fontsource/dm-serif-display/files/dm-serif-display-latin-ext-400-normal.woff")] },
  { name: "Sans", weight: 400, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-400-normal.woff")] },
  { name: "Sans", weight: 600, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-600-normal.woff")] },
  { name: "Sans", weight: 700, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-700-normal.woff")] },
  { name: "Sans Ext", weight: 400, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-ext-400-normal.woff")] },
  { name: "Sans Ext", weight: 600, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-ext-600-normal.woff")] },
  { name: "Sans Ext", weight: 700, files: [bundled("@fontsource/dm-sans/files/dm-sans-latin-ext-700-normal.woff")] },
  { name: "Fallback Serif", weight: 400, files: SYSTEM_SERIF },
  { name: "Fallback Sans", weight: 400, files: SYSTEM_SANS },
  { name: "Fallback Sans", weight: 700, files: SYSTEM_SANS_BOLD },
];

function readFirst(files: string[]): Buffer | undefined {
  for (const file of files) {
    try {
      return readFileSync(file);
    } catch {
      // Next candidate.
    }
  }
  return undefined;
}

/** Reads the font files; unreadable ones are left out (the image then uses what is there). */
export function readOgFonts(sources: readonly FontSource[] = SOURCES): OgFont[] {
  return sources.flatMap(({ name, weight, files }) => {
    const data = readFirst(files);
    return data ? [{ name, data, weight, style: "normal" as const }] : [];
  });
}

let loaded: OgFont[] | undefined;

/** The fonts of this process, read on the first call (the OG route calls it at startup). */
export function loadOgFonts(): OgFont[] {
  loaded ??= readOgFonts();
  return loaded;
}
