// Draws the 1200×630 link-preview PNG with satori (layout → SVG) and resvg (SVG → PNG), with the
// project's own fonts; any failure or a render over budget gives the plain fallback image.

import satori from "satori";
import { Resvg } from "@resvg/resvg-js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OgParams } from "./params.ts";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
export const OG_RENDER_BUDGET_MS = 10_000;

const ACCENT = { default: "#5f3223", "event-modal": "#21545a" } as const;
const INK = "#2b1a12";

type Font = { name: string; data: Buffer; weight: 400 | 600 | 700; style: "normal" };

const FONT_FILES: { name: string; file: string; weight: Font["weight"] }[] = [
  { name: "Display", file: "@fontsource/dm-serif-display/files/dm-serif-display-latin-400-normal.woff", weight: 400 },
  { name: "Sans", file: "@fontsource/dm-sans/files/dm-sans-latin-400-normal.woff", weight: 400 },
  { name: "Sans", file: "@fontsource/dm-sans/files/dm-sans-latin-600-normal.woff", weight: 600 },
  { name: "Sans", file: "@fontsource/dm-sans/files/dm-sans-latin-700-normal.woff", weight: 700 },
];

let fonts: Font[] | undefined;

/** Loads the font files once; a missing file is skipped (the fallback image needs none). */
export function loadOgFonts(): Font[] {
  if (fonts) return fonts;
  const root = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
  fonts = FONT_FILES.flatMap(({ name, file, weight }) => {
    try {
      return [{ name, data: readFileSync(root + file), weight, style: "normal" as const }];
    } catch {
      return [];
    }
  });
  return fonts;
}

type Node = { type: string; props: Record<string, unknown> };

function el(type: string, style: Record<string, unknown>, children?: unknown): Node {
  return { type, props: { style, children } };
}

function pill(text: string, tone: "light" | "accent", accent: string): Node {
  return el(
    "div",
    {
      display: "flex",
      padding: "10px 22px",
      borderRadius: 999,
      fontSize: 24,
      fontWeight: 600,
      color: tone === "accent" ? "#fff8ef" : accent,
      background: tone === "accent" ? accent : "rgba(255,255,255,0.78)",
      border: tone === "accent" ? "none" : `2px solid ${accent}33`,
    },
    text,
  );
}

/** The image layout of §18 as a satori element tree. */
export function ogLayout(params: OgParams, site: { name: string; host: string }): Node {
  const accent = ACCENT[params.variant];
  const details = [params.date, params.time, params.price, params.venue, ...params.genres].filter(Boolean);
  return el(
    "div",
    {
      display: "flex",
      flexDirection: "column",
      width: OG_WIDTH,
      height: OG_HEIGHT,
      boxSizing: "border-box",
      padding: "44px 56px",
      fontFamily: "Sans",
      color: INK,
      backgroundColor: "#f4e7d6",
      backgroundImage: `radial-gradient(circle at 12% 18%, ${accent}55 0%, ${accent}00 42%), radial-gradient(circle at 88% 86%, ${accent}44 0%, ${accent}00 46%), linear-gradient(135deg, #fbf3e8 0%, #efdcc5 100%)`,
    },
    [
      el("div", { display: "flex", justifyContent: "space-between", alignItems: "center" }, [
        el("div", { display: "flex", alignItems: "center", gap: 18 }, [
          el("div", { display: "flex", fontSize: 24, fontWeight: 700, letterSpacing: 4, color: accent }, `${site.name} · FÊTE DE LA MUSIQUE`.toUpperCase()),
          pill(params.variant === "event-modal" ? "Event Focus" : "City Guide", "light", accent),
        ]),
        params.eventCount > 0 ? pill(`${params.eventCount} events live`, "accent", accent) : el("div", { display: "flex" }),
      ]),
      el("div", { display: "flex", flexGrow: 1, alignItems: "center", justifyContent: "center" }, [
        el(
          "div",
          {
            display: "flex",
            flexDirection: "column",
            alignItems: "center",
            flexGrow: 1,
            padding: "40px 52px",
            borderRadius: 30,
            background: "rgba(255,255,255,0.86)",
            boxShadow: "0 20px 60px rgba(95,50,35,0.18)",
          },
          [
            el("div", { display: "flex", fontFamily: "Display", fontSize: params.title.length > 60 ? 56 : 77, lineHeight: 1.08, textAlign: "center", justifyContent: "center" }, params.title),
            el("div", { display: "flex", marginTop: 16, fontSize: 30, color: "#5b4536", textAlign: "center", justifyContent: "center" }, params.subtitle),
            details.length
              ? el("div", { display: "flex", flexWrap: "wrap", justifyContent: "center", gap: 12, marginTop: 26 }, details.map((d) => pill(d, "light", accent)))
              : el("div", { display: "flex" }),
          ],
        ),
      ]),
      el("div", { display: "flex", justifyContent: "space-between", fontSize: 22, fontWeight: 700, letterSpacing: 3, color: accent }, [
        el("div", { display: "flex" }, (params.arrondissement ? `${params.arrondissement} · Paris` : "Paris").toUpperCase()),
        el("div", { display: "flex" }, site.host.toUpperCase()),
      ]),
    ],
  );
}

/** Renders the image; throws on any layout or rasterising error. */
export async function renderOgPng(params: OgParams, site: { name: string; host: string }): Promise<Uint8Array> {
  const loaded = loadOgFonts();
  if (loaded.length === 0) throw new Error("No font available for the OG image");
  const svg = await satori(ogLayout(params, site) as never, { width: OG_WIDTH, height: OG_HEIGHT, fonts: loaded });
  return new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH } }).render().asPng();
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The plain fallback: the beige gradient with the site name (no fonts of ours needed). */
export function renderFallbackPng(siteName: string): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fbf3e8"/><stop offset="1" stop-color="#e6cfb4"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<text x="600" y="340" text-anchor="middle" font-family="serif" font-size="96" fill="#5f3223">${escapeXml(siteName)}</text>
</svg>`;
  return new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH } }).render().asPng();
}

/** Resolves with the value, or with `fallback()` once `ms` have passed. */
export async function withinBudget<T>(work: Promise<T>, ms: number, fallback: () => T): Promise<{ value: T; timedOut: boolean }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ value: T; timedOut: boolean }>((resolve) => {
    timer = setTimeout(() => resolve({ value: fallback(), timedOut: true }), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ value, timedOut: false })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
