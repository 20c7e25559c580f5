// Links (§2.10): the Primary URL cell split into usable URLs.

const LINK_SEPARATORS = /[,\n\r|]/;
const HTTP_URL = /^https?:\/\//i;

/** The primary link (first kept URL, or null) and every URL when the cell held more than one. */
export interface LinkReading {
  link: string | null;
  links?: string[];
}

/** Reads a Primary URL cell: http(s) parts kept, dotted parts without spaces get https://, others dropped. */
export function parseLinks(cell: string | null | undefined): LinkReading {
  const urls: string[] = [];
  for (const raw of (cell ?? "").split(LINK_SEPARATORS)) {
    const part = raw.trim();
    if (part === "" || part === "#") continue;
    if (HTTP_URL.test(part)) urls.push(part);
    else if (part.includes(".") && !/\s/.test(part)) urls.push(`https://${part}`);
  }
  if (urls.length === 0) return { link: null };
  return urls.length > 1 ? { link: urls[0], links: urls } : { link: urls[0] };
}
