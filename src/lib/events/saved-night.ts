// The limits of "My night" that the server and the browser share (docs/public-pages.md, "My night"):
// the server reads at most this many keys, and my-night.js gets the cap and its storage key as data.

/** Most events a night holds (the browser refuses a 31st save; a longer URL is cut). */
export const MAX_NIGHT_EVENTS = 30;

/** The browser storage key of the saved event keys. */
export const NIGHT_STORAGE_KEY = "finder:my-night:v1";
