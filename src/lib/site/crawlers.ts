// What search engines read: robots.txt (public pages open, private areas closed, where the
// sitemap is) and sitemap.xml (the homepage and the share page of every live event), in every
// language's addresses: the root language at the site's root, the other under its prefix (/en).

import { publicUrl, type Config } from "../config.ts";
import { sharePath } from "../links.ts";
import { languagePrefix, LANGUAGES } from "../i18n/index.ts";
import type { LiveEvent } from "../sheet/types.ts";

type SiteConfig = Pick<Config, "siteUrl" | "basePath" | "defaultLanguage">;

/** Paths no crawler should index: the console, the APIs, accounts and partner statistics. */
export const PRIVATE_PATHS: readonly string[] = ["/admin", "/api/", "/account", "/partner-stats", "/sign-in", "/sign-out"];

/** Private paths that are public pages served in each language (the others exist once). */
const PER_LANGUAGE_PRIVATE_PATHS: readonly string[] = ["/account", "/sign-in", "/sign-out"];

/** A page's path in every language: "/privacy" → ["/privacy", "/en/privacy"] with French at the root. */
function inEveryLanguage(config: SiteConfig, path: string): string[] {
  const site = { basePath: config.basePath, rootLanguage: config.defaultLanguage };
  return LANGUAGES.map((language) => {
    const prefix = languagePrefix(language, site);
    return prefix === "" ? path : path === "/" ? `${prefix}/` : `${prefix}${path}`;
  });
}

/** robots.txt: everything public is open; the private areas are closed; the sitemap's address. */
export function robotsTxt(config: SiteConfig): string {
  const closed = PRIVATE_PATHS.flatMap((path) => (PER_LANGUAGE_PRIVATE_PATHS.includes(path) ? inEveryLanguage(config, path) : [path]));
  const lines = ["User-agent: *", "Allow: /", ...closed.map((path) => `Disallow: ${publicPath(config, path)}`), "", `Sitemap: ${publicUrl(config, "/sitemap.xml")}`, ""];
  return lines.join("\n");
}

function publicPath(config: SiteConfig, path: string): string {
  return new URL(publicUrl(config, path)).pathname;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/**
 * sitemap.xml: the homepage, the static information pages, one share page per event of the current
 * edition (the upcoming part) and the archive page of each past edition, each in every language.
 * A past edition's events are reached through its archive, not listed one by one.
 */
export function sitemapXml(config: SiteConfig, events: readonly Pick<LiveEvent, "eventKey" | "slug">[], lastModified: Date, archiveYears: readonly number[] = []): string {
  const modified = lastModified.toISOString().slice(0, 10);
  const entry = (path: string, priority: string) =>
    inEveryLanguage(config, path)
      .map((localised) => `  <url><loc>${xmlText(publicUrl(config, localised))}</loc><lastmod>${modified}</lastmod><priority>${priority}</priority></url>`)
      .join("\n");
  const urls = [entry("/", "1.0"), entry("/submit-event", "0.5"), entry("/feature-event", "0.5"), entry("/privacy", "0.2"), entry("/terms", "0.2")];
  const seen = new Set<string>();
  for (const event of events) {
    if (seen.has(event.eventKey)) continue; // a multi-day event is listed once
    seen.add(event.eventKey);
    urls.push(entry(sharePath(event), "0.8"));
  }
  for (const year of archiveYears) urls.push(entry(`/${year}/`, "0.3"));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}
