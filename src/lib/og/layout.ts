// The link-preview layout (see docs/public-pages.md, "Link-preview image") as a satori element
// tree: beige gradient with two soft glows in the variant's accent, brand line and pills on top, a
// centred white card with the title, subtitle and detail pills, and the area and site domain in the
// footer. Every box is bounded so the longest allowed texts (110 characters each) still fit in
// 1200×630.

import { OG_DISPLAY_FAMILY, OG_SANS_FAMILY } from "./fonts.ts";
import type { OgParams } from "./params.ts";
import { translate } from "../i18n/index.ts";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/** Accent of each variant: brown for the city guide, teal for one event. */
export const OG_ACCENT = { default: "#5f3223", "event-modal": "#21545a" } as const;
const INK = "#2b1a12";
const PAD_X = 56;
const CONTENT_WIDTH = OG_WIDTH - 2 * PAD_X;
const CARD_PAD_X = 52;
const CARD_INNER_WIDTH = CONTENT_WIDTH - 2 * CARD_PAD_X;
const HEADER_HEIGHT = 56;
const FOOTER_HEIGHT = 30;
// What is left between the header and the footer (top padding 42, bottom 38).
const MIDDLE_HEIGHT = OG_HEIGHT - 42 - 38 - HEADER_HEIGHT - FOOTER_HEIGHT;
const SUBTLE_INK = "#5b4536";

/** An element as satori takes it (the shape React elements have). */
export interface OgNode {
  type: string;
  props: { style: Record<string, unknown>; children?: unknown };
}

function el(style: Record<string, unknown>, children?: unknown): OgNode {
  return { type: "div", props: { style: { display: "flex", ...style }, children } };
}

// No bundled font draws emoji or flags: drop them (with their joiners and modifiers) rather than
// show empty boxes.
const PICTOGRAPHS = /[\p{Extended_Pictographic}\u{FE0E}\u{FE0F}\u{200D}\u{20E3}\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]/gu;

/** Text as drawn: emoji removed, spaces collapsed, cut to `max` characters with "…". */
export function drawnText(text: string, max = Infinity): string {
  const clean = text.replace(PICTOGRAPHS, "").replace(/\s+/g, " ").trim();
  const chars = Array.from(clean);
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** Title size: about 77 px, smaller as the title grows so three lines always fit. */
export function titleSize(title: string): number {
  const length = Array.from(title).length;
  if (length <= 30) return 77;
  if (length <= 50) return 66;
  if (length <= 75) return 54;
  return 46;
}

function pill(text: string, tone: "light" | "solid", accent: string, maxChars = 34): OgNode {
  return el(
    {
      alignItems: "center",
      flexShrink: 0,
      padding: "8px 20px",
      borderRadius: 999,
      fontSize: 22,
      fontWeight: 600,
      whiteSpace: "nowrap",
      color: tone === "solid" ? "#fff8ef" : accent,
      backgroundColor: tone === "solid" ? accent : "rgba(255,255,255,0.8)",
      border: tone === "solid" ? `2px solid ${accent}` : `2px solid ${accent}33`,
    },
    drawnText(text, maxChars),
  );
}

/** The preview layout for normalised parameters and the site's name and host. */
export function ogLayout(params: OgParams, site: { name: string; host: string }): OgNode {
  const accent = OG_ACCENT[params.variant];
  const title = drawnText(params.title) || site.name;
  const subtitle = drawnText(params.subtitle);
  const details = [params.date, params.time, params.price, params.venue, ...params.genres].map((d) => drawnText(d)).filter(Boolean);
  const area = drawnText(params.arrondissement, 40);

  return el(
    {
      flexDirection: "column",
      width: OG_WIDTH,
      height: OG_HEIGHT,
      padding: `42px ${PAD_X}px 38px`,
      fontFamily: OG_SANS_FAMILY,
      color: INK,
      backgroundColor: "#f4e7d6",
      backgroundImage: `radial-gradient(circle at 10% 16%, ${accent}59 0%, ${accent}00 40%), radial-gradient(circle at 90% 88%, ${accent}47 0%, ${accent}00 44%), linear-gradient(135deg, #fbf3e8 0%, #efdcc5 100%)`,
    },
    [
      el({ justifyContent: "space-between", alignItems: "center", width: CONTENT_WIDTH, height: HEADER_HEIGHT }, [
        el({ alignItems: "center", gap: 18 }, [
          el({ fontSize: 23, fontWeight: 700, letterSpacing: 4, color: accent }, drawnText(`${site.name} · ${translate(params.language, "og.tagline")}`, 40).toLocaleUpperCase(params.language)),
          pill(translate(params.language, params.variant === "event-modal" ? "og.eventFocus" : "og.cityGuide"), "light", accent),
        ]),
        params.eventCount > 0 ? pill(translate(params.language, "og.eventsLive", { count: params.eventCount }), "solid", accent) : el({}),
      ]),
      el({ alignItems: "center", justifyContent: "center", width: CONTENT_WIDTH, height: MIDDLE_HEIGHT }, [
        el(
          {
            flexDirection: "column",
            alignItems: "center",
            justifyContent: "center",
            width: CONTENT_WIDTH,
            maxHeight: MIDDLE_HEIGHT - 36,
            overflow: "hidden",
            padding: `28px ${CARD_PAD_X}px`,
            borderRadius: 30,
            backgroundColor: "rgba(255,255,255,0.86)",
            // A short blur: resvg's cost grows with the blur radius (60 px took over a second).
            boxShadow: `0 10px 16px ${accent}26`,
          },
          [
            el(
              { fontFamily: OG_DISPLAY_FAMILY, fontSize: titleSize(title), lineHeight: 1.06, width: CARD_INNER_WIDTH, textAlign: "center", justifyContent: "center", maxHeight: Math.ceil(titleSize(title) * 1.06 * 3), overflow: "hidden" },
              title,
            ),
            subtitle
              ? el({ marginTop: 12, fontSize: subtitle.length > 60 ? 26 : 30, lineHeight: 1.3, width: CARD_INNER_WIDTH, color: SUBTLE_INK, textAlign: "center", justifyContent: "center", maxHeight: Math.ceil((subtitle.length > 60 ? 26 : 30) * 1.3 * 2), overflow: "hidden" }, subtitle)
              : el({}),
            details.length
              ? el({ flexWrap: "wrap", justifyContent: "center", gap: 10, marginTop: 18, width: CARD_INNER_WIDTH, maxHeight: 112, overflow: "hidden" }, details.map((d) => pill(d, "light", accent)))
              : el({}),
          ],
        ),
      ]),
      el({ justifyContent: "space-between", alignItems: "center", width: CONTENT_WIDTH, height: FOOTER_HEIGHT, fontSize: 22, fontWeight: 700, letterSpacing: 3, color: accent }, [
        el({}, (area ? `${area} · Paris` : "Paris").toUpperCase()),
        el({}, site.host.toUpperCase()),
      ]),
    ],
  );
}
