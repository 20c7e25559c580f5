// Draws the 1200×630 link-preview PNG: satori lays out the preview card into SVG with the project's
// fonts, resvg rasterises it on a worker thread (renderAsync) so a render never blocks the server.
// The fallback is a plain gradient with the site name, drawn without our fonts or satori.
// satori is loaded on the first render, not at start: loading it (and its layout engine) costs
// about a tenth of a second that a process starting up should not spend on a preview image.

import { Resvg, renderAsync } from "@resvg/resvg-js";
import { loadOgFonts, type OgFont } from "./fonts.ts";
import { ogLayout, OG_HEIGHT, OG_WIDTH } from "./layout.ts";
import type { OgParams } from "./params.ts";

export { OG_HEIGHT, OG_WIDTH };

/** The render budget (10 s): after it, the fallback image is sent. */
export const OG_RENDER_BUDGET_MS = 10_000;

/** Who the image is for: the site name (brand line) and host (footer). */
export interface OgSite {
  name: string;
  host: string;
}

/** Renders the image; throws on any layout or rasterising error. */
export async function renderOgPng(params: OgParams, site: OgSite, fonts: OgFont[] = loadOgFonts()): Promise<Uint8Array> {
  if (fonts.length === 0) throw new Error("No font available for the OG image");
  const { default: satori } = await import("satori");
  const svg = await satori(ogLayout(params, site) as never, { width: OG_WIDTH, height: OG_HEIGHT, fonts });
  // Text is already outlined by satori: resvg needs no fonts, and skipping the system scan is faster.
  const image = await renderAsync(svg, { fitTo: { mode: "width", value: OG_WIDTH }, font: { loadSystemFonts: false } });
  return image.asPng();
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The plain fallback: the beige gradient with the site name in the host's serif. */
export function renderFallbackPng(siteName: string): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fbf3e8"/><stop offset="1" stop-color="#e6cfb4"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<text x="600" y="345" text-anchor="middle" font-family="DejaVu Serif, Liberation Serif, serif" font-size="96" fill="#5f3223">${escapeXml(siteName)}</text>
</svg>`;
  return new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH } }).render().asPng();
}

/** Resolves with the work's value, or `{timedOut: true}` once `ms` have passed (the work goes on). */
export async function withinBudget<T>(work: Promise<T>, ms: number): Promise<{ value: T; timedOut: false } | { timedOut: true }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([work.then((value) => ({ value, timedOut: false as const })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
