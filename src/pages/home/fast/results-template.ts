// The results fragment of a search, from the fragment of the same results under another search
// (see docs/public-pages.md, "Render cache"). Distinct searches often find the same events:
// every misspelt or unknown word finds nothing, and "Kompa", "kompa ", "KOMPA" find the same list.
// Their fragments differ only where the search is written into a link (`q=` in the chip, feed,
// quick-chip and map links, always in URL form), so the fragment is rendered once per result with
// a stand-in search, kept as UTF-8 bytes cut at the stand-in, and joined with each new search's
// `q=` value into the bytes the render cache keeps and sends (no string of the whole fragment is
// built for a search, nor encoded again). A template used again also keeps its parts compressed,
// and the gzip answer of each later search is spliced from them (compression.ts, splicedGzip).
// Templates are kept per live list and stretch of the render context, by the context's key and
// what the search decided (kept-views.ts).

import { FILTER_PARAMS } from "../../../lib/events/filter-query.ts";
import { withSearch } from "../../../lib/events/filter-links.ts";
import { queryOfParts, type HomeListing } from "../listing.ts";
import { deflatedPart, newBytes, splicedGzip } from "../../../lib/serving/compression.ts";
import type { LiveEvent } from "../../../lib/sheet/types.ts";
import { keptOf, scratchOf, type Kept, type Template } from "./kept-views.ts";
import type { RenderContext } from "./render-context.ts";

/**
 * The search a template is rendered with: letters only, so it is written the same way in every
 * URL, and no word an event holds. Its written form is what a template is cut at.
 */
export const SEARCH_STAND_IN = "zqxsearchstandinzqx";

/**
 * The bytes of result templates a live list keeps (their parts and compressed parts), the least
 * recently used dropped first past it: a template with cards is about 40 KB in all, one finding
 * nothing about 8 KB. Dropping them all at once when full, as memo.ts does, made a night's
 * searches (a few hundred results, each written several ways) render and compress their
 * templates again and again.
 */
const MAX_TEMPLATE_BYTES = 16 * 1024 * 1024;

/** A search's results fragment: its UTF-8 bytes, and their gzip when its template made it. */
export interface SearchResultsBody {
  bytes: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();

/**
 * The fragment of `listing` (a search's results in `context`) as UTF-8 bytes, from a template kept
 * by the context's key (its list, stretch, language, site and feed), the filter state without its
 * search, and everything the search decided (the events found in order, the spotlight, "Did you
 * mean", the page); `render` draws a listing. Without a search the fragment is
 * rendered as is (it is cached by its URL anyway). `transient`: the bytes are written into buffers
 * reused by the next call (Rendered.transient), for an answer sent at once.
 */
export function searchResultsBody(context: RenderContext, listing: HomeListing, render: (listing: HomeListing) => string, options: { transient?: boolean } = {}): SearchResultsBody {
  const q = listing.filters.q;
  if (q === "") return { bytes: encoder.encode(render(listing)) };
  const kept = keptOf(context);
  const key = templateKey(context, listing);
  let template = kept.templates.get(key);
  if (template === undefined) {
    template = templateOf(render(withStandIn(listing)));
    keep(kept, key, template, template.size);
  } else {
    // The most recently used goes last.
    kept.templates.delete(key);
    kept.templates.set(key, template);
  }
  const search = encoder.encode(searchValue(q));
  const scratch = options.transient ? scratchOf(context) : undefined;
  const bytes = joined(template, search, scratch?.body ?? newBytes);
  if (!template.used) {
    template.used = true;
    return { bytes };
  }
  if (template.deflated === undefined) {
    template.deflated = template.parts.map(deflatedPart);
    keep(kept, key, template, deflatedSize(template));
  }
  return { bytes, gzip: splicedGzip(template.deflated, search, bytes, scratch?.gzip ?? newBytes) };
}

/** Counts `added` bytes of a template under `key` and drops the least recently used others past MAX_TEMPLATE_BYTES. */
function keep(kept: Kept, key: string, template: Template, added: number): void {
  kept.templates.set(key, template);
  kept.templateBytes += added;
  for (const [oldest, dropped] of kept.templates) {
    if (kept.templateBytes <= MAX_TEMPLATE_BYTES || oldest === key) break;
    kept.templates.delete(oldest);
    kept.templateBytes -= dropped.size + deflatedSize(dropped);
  }
}

/** The bytes of a template's compressed parts (0 before they are made). */
function deflatedSize(template: Template): number {
  return template.deflated?.reduce((total, part) => total + part.byteLength, 0) ?? 0;
}

/** A fragment rendered with the stand-in search, as bytes cut where the stand-in was. */
function templateOf(html: string): Template {
  const parts = html.split(SEARCH_STAND_IN).map((part) => encoder.encode(part));
  return { parts, size: parts.reduce((total, part) => total + part.byteLength, 0), used: false };
}

/** The template's parts with `search` between each two. */
function joined({ parts, size }: Template, search: Uint8Array, allocate: (size: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const out = allocate(size + (parts.length - 1) * search.byteLength);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      out.set(search, at);
      at += search.byteLength;
    }
    out.set(parts[i]!, at);
    at += parts[i]!.byteLength;
  }
  return out;
}

/** The listing as drawn with the stand-in search: only what writes the search changes. */
function withStandIn(listing: HomeListing): HomeListing {
  return {
    ...listing,
    filters: { ...listing.filters, q: SEARCH_STAND_IN },
    query: queryOfParts(listing.searchlessQuery, SEARCH_STAND_IN, listing.moment),
  };
}

// The search as a URL writes it after `q=` (filter-links.ts, withSearch).
function searchValue(q: string): string {
  return withSearch("", q).slice(FILTER_PARAMS.q.name.length + 1);
}

const SEPARATOR = "\u0000";

function keysOf(events: readonly LiveEvent[]): string {
  let keys = "";
  for (const event of events) keys += `${event.eventKey},`;
  return keys;
}

/** Everything a results fragment is drawn from besides the search's own text: the context, and what the search decided. */
export function templateKey(context: RenderContext, listing: HomeListing): string {
  const suggestion = listing.suggestion ? `${listing.suggestion.q}${SEPARATOR}${listing.suggestion.count}` : "";
  return [context.key, listing.searchlessQuery, listing.moment ?? "", listing.page, listing.finishedFrom ?? "", suggestion, keysOf(listing.spotlight), keysOf(listing.matching)].join(SEPARATOR);
}
