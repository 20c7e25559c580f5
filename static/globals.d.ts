// What the browser scripts under static/ share through `window` (type-checked by tsconfig.static.json).

/** A message's parameters: `count` picks a plural form, the others fill `{name}` slots. */
type FinderMessageParams = Record<string, string | number>;

interface Window {
  /** The page's words, set by static/messages.js (docs/languages.md): a key comes back as itself when unknown. */
  finderMsg: (key: string, params?: FinderMessageParams) => string;
  /** The map, set by static/map.js once app.js has loaded it. */
  finderMap?: any;
}

interface Window {
  /** htmx (static/vendor/htmx.min.js, loaded before the page scripts). */
  htmx: any;
}

/** Leaflet (vendor/leaflet.js), loaded by app.js before static/map.js when the map opens. */
declare const L: any;

/**
 * htmx's events (https://htmx.org/reference/#events) carry what they are about in `detail`; so do
 * the console's own events sent from htmx answers (HX-Trigger).
 */
interface GlobalEventHandlersEventMap {
  "htmx:load": CustomEvent;
  "htmx:afterSettle": CustomEvent;
  "htmx:afterRequest": CustomEvent;
  "htmx:beforeRequest": CustomEvent;
  "htmx:beforeSwap": CustomEvent;
  "htmx:sendError": CustomEvent;
  "htmx:responseError": CustomEvent;
  "htmx:timeout": CustomEvent;
  "htmx:historyCacheMiss": CustomEvent;
  "sheet-published": CustomEvent;
  "sheet-discarded": CustomEvent;
}
