// What the homepage's fast path keeps of its renders (see docs/public-pages.md, "Render cache"):
// event cards, the removable chips of a filter state, and the results templates of searches
// (results-template.ts), each kept per live list for one stretch of its render context
// (render-context.ts) and looked up by the context's key. The views themselves stay plain
// functions; this module hands them the kept pieces (HomePieces).
//
// These are memos of immutable values: a list's events never change once handed out, and a
// context's key names everything else a kept piece is drawn from. The store of a list goes with
// the list (a WeakMap), and is started again when a render falls outside its stretch.

import type { LiveEvent } from "../../../lib/sheet/types.ts";
import type { FilterChip } from "../../../lib/events/filter-labels.ts";
import { reusedBytes } from "../../../lib/serving/compression.ts";
import type { EventCardProps } from "../../components/event-card.view.tsx";
import { PLAIN_PIECES, type HomePieces } from "../home.view.tsx";
import type { HomeListing } from "../listing.ts";
import type { RenderContext } from "./render-context.ts";

/** A fragment as UTF-8 bytes, cut where the stand-in search was (results-template.ts). */
export interface Template {
  /** The bytes between the cuts, in order: the search goes between each two. */
  parts: Uint8Array[];
  /** Their length in all. */
  size: number;
  /** Whether a search has been joined to it yet. */
  used: boolean;
  /**
   * The parts, each compressed once (deflatedPart), made when the template is used a second time:
   * most templates serve one search, and compressing every part costs more than compressing one
   * whole answer.
   */
  deflated?: Uint8Array[];
}

/** What is kept for one live list over one stretch. */
export interface Kept {
  from: number;
  until: number;
  /** Card markup per event object, then by cardKey. */
  cards: WeakMap<LiveEvent, Map<string, string>>;
  /** Removable chips by chipsKey. */
  chips: Map<string, readonly FilterChip[]>;
  /** Results templates by key (results-template.ts), least recently used first. */
  templates: Map<string, Template>;
  /** The templates' bytes in all (their parts and compressed parts). */
  templateBytes: number;
}

/**
 * Per live list, and written into by every render of it: the buffers a transient search fragment
 * and its gzip are written into (Rendered.transient), valid until the next search's fragment.
 */
interface ListKeep {
  kept: Kept;
  scratch: { body: (size: number) => Uint8Array<ArrayBuffer>; gzip: (size: number) => Uint8Array<ArrayBuffer> };
}

const keptPerList = new WeakMap<readonly LiveEvent[], ListKeep>();

function listKeepOf(context: RenderContext): ListKeep {
  const at = context.now.getTime();
  let list = keptPerList.get(context.events);
  if (list === undefined) keptPerList.set(context.events, (list = { kept: emptyKept(context), scratch: { body: reusedBytes(), gzip: reusedBytes() } }));
  else if (at < list.kept.from || at >= list.kept.until) list.kept = emptyKept(context);
  return list;
}

function emptyKept(context: RenderContext): Kept {
  return { from: context.stretch.from, until: context.stretch.until, cards: new WeakMap(), chips: new Map(), templates: new Map(), templateBytes: 0 };
}

/** What is kept for the context's list and stretch. */
export function keptOf(context: RenderContext): Kept {
  return listKeepOf(context).kept;
}

/** The reused buffers of the context's list (Rendered.transient). */
export function scratchOf(context: RenderContext): ListKeep["scratch"] {
  return listKeepOf(context).scratch;
}

/** The key a card is kept by, with its event object: the context, the saved line and the heading level. */
export function cardKey(context: RenderContext, props: Pick<EventCardProps, "showSaved" | "headingLevel">): string {
  return `${context.key}|${props.showSaved ? 1 : 0}|${props.headingLevel ?? 3}`;
}

/** The key a filter state's removable chips are kept by: the context and the filter state without its search. */
export function chipsKey(context: RenderContext, listing: Pick<HomeListing, "searchlessQuery">): string {
  return `${context.key}|${listing.searchlessQuery}`;
}

/** Two readings of the saved line, two heading levels: the cards of one event in one context. */
const MAX_CARDS_PER_EVENT = 8;
/** A few hundred filter states in practice; the chips are dropped past this. */
const MAX_KEPT_CHIPS = 5_000;

/** The pieces a render in `context` draws with: cards and chips kept for the context's list and stretch. */
export function keptPieces(context: RenderContext): HomePieces {
  const kept = keptOf(context);
  return {
    card(props) {
      const key = cardKey(context, props);
      let cards = kept.cards.get(props.event);
      const found = cards?.get(key);
      if (found !== undefined) return found;
      // Drawn at the context's instant, the one its key stands for.
      const html = PLAIN_PIECES.card({ ...props, now: context.now });
      if (typeof html !== "string") return html;
      if (!cards) kept.cards.set(props.event, (cards = new Map()));
      else if (cards.size >= MAX_CARDS_PER_EVENT) cards.clear();
      cards.set(key, html);
      return html;
    },
    searchlessChips(listing) {
      const key = chipsKey(context, listing);
      let chips = kept.chips.get(key);
      if (chips === undefined) {
        chips = PLAIN_PIECES.searchlessChips(listing);
        if (kept.chips.size >= MAX_KEPT_CHIPS) kept.chips.clear();
        kept.chips.set(key, chips);
      }
      return chips;
    },
  };
}
