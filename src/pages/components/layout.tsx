// The page shell shared by every public and admin page: head, skip link, header, main, footer.

import { assetUrl } from "../../lib/static-assets.ts";
import type { Children } from "@kitajs/html";

import { SITE_NAME } from "../../lib/links.ts";
import type { PublicBanner } from "../../lib/banner.ts";
import { SlidingBanner } from "./banner.view.tsx";
import { MyNightLink } from "./save-button.view.tsx";

export { SITE_NAME };

/** The page background, also the installed app's title bar and splash colour (see pack.routes.ts). */
export const THEME_COLOUR = "#faf6f1";

export interface LayoutProps {
  title: string;
  description?: string;
  /** Extra tags for <head> (canonical, OpenGraph, JSON-LD); must already be escaped markup. */
  head?: string;
  /** Extra body class, e.g. "admin". */
  bodyClass?: string;
  /** Scripts to load at the end of the body: paths under /static ("app.js"), linked by their fingerprinted address. */
  scripts?: string[];
  /** This page's htmx settings, merged over the defaults every page gets (see HTMX_DEFAULTS). */
  htmxConfig?: Record<string, unknown>;
  noindex?: boolean;
  children?: Children;
}

/**
 * htmx settings of every page, kept within the Content-Security-Policy: no injected <style>
 * element for indicators (static/app.css has those rules) and no eval-based features.
 */
export const HTMX_DEFAULTS = { includeIndicatorStyles: false, allowEval: false, allowScriptTags: false } as const;

/** A full HTML document. */
export function Layout(props: LayoutProps): JSX.Element {
  // Head tags are built by the pages from escaped parts (canonical, OpenGraph, JSON-LD).
  const safeHead = props.head ?? "";
  return (
    "<!doctype html>" +
    (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          {props.description ? <meta name="description" content={props.description} /> : ""}
          {props.noindex ? <meta name="robots" content="noindex, nofollow" /> : ""}
          <meta name="color-scheme" content="light dark" />
          <meta name="htmx-config" content={JSON.stringify({ ...HTMX_DEFAULTS, ...props.htmxConfig })} />
          <link rel="stylesheet" href={assetUrl("app.css")} />
          <link rel="icon" href={assetUrl("favicon.svg")} type="image/svg+xml" />
          <link rel="manifest" href="/manifest.webmanifest" />
          <link rel="apple-touch-icon" href={assetUrl("icons/apple-touch-icon.png")} />
          <meta name="theme-color" content={THEME_COLOUR} />
          {safeHead}
        </head>
        <body class={props.bodyClass}>
          <a class="skip-link" href="#main">
            Skip to content
          </a>
          {props.children}
          <script src={assetUrl("vendor/htmx.min.js")} defer></script>
          {(props.scripts ?? []).map((src) => (
            <script src={src.startsWith("/") ? src : assetUrl(src)} defer></script>
          ))}
        </body>
      </html>
    )
  );
}

/** The public site header. */
export function SiteHeader(props: { children?: Children; /** The sliding banner, shown above the bar. */ banner?: PublicBanner }): JSX.Element {
  return (
    <header class="site-header">
      {props.banner ? <SlidingBanner banner={props.banner} /> : ""}
      <a class="brand" href="/">
        {SITE_NAME}
      </a>
      <nav aria-label="Main">
        <a href="/">Events</a>
        <MyNightLink />
        <a href="/submit-event">Submit an event</a>
        <a href="/feature-event">Promote</a>
      </nav>
      {props.children}
    </header>
  );
}

/** The public site footer. */
export function SiteFooter(): JSX.Element {
  return (
    <footer class="site-footer">
      <p>
        {SITE_NAME} · Fête de la Musique, Paris · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/calendar.ics">Calendar feed</a> · <a href="/api/docs">API</a>
      </p>
    </footer>
  );
}
