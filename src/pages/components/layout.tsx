// The page shell shared by every public and admin page: head, skip link, header, main, footer.

import { assetUrl, moduleUrls } from "../../lib/serving/static-assets.ts";
import { scriptJson } from "../../lib/http/script-json.ts";
import { SESSION_STORAGE_KEY } from "../../lib/tracking/validation.ts";
import { PARIS_TIME_ZONE } from "../../lib/paris-time.ts";
import type { Children } from "@kitajs/html";

import { languageResourceHref, pageHref, siteHref, SITE_NAME } from "../../lib/links.ts";
import type { PublicBanner } from "../../lib/site/banner.ts";
import { SlidingBanner } from "./banner.view.tsx";
import { attr } from "./attr.ts";
import { clientMessages, currentLanguage, currentPath, currentSite, type Language, LANGUAGES, t } from "../../lib/i18n/index.ts";
import { MyNightLink } from "./save-button.view.tsx";
import { formatDayMonth } from "../../lib/i18n/index.ts";
import { PREVIEW_OFF, PREVIEW_PARAM, type PreviewClock } from "../../lib/preview-clock.ts";

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
  /**
   * Scripts to load at the end of the body: paths under /static ("app.js"), linked by their
   * fingerprinted address as ES modules (PageScript), in this order. A page whose scripts show
   * text lists "messages.js" first: the page's words (JSON) are written only for it.
   */
  scripts?: string[];
  /** This page's htmx settings, merged over the defaults every page gets (see HTMX_DEFAULTS). */
  htmxConfig?: Record<string, unknown>;
  noindex?: boolean;
  /** The page's hreflang alternates (see alternateLinks), already escaped markup. */
  alternates?: string;
  children?: Children;
}

/** The script that reads the page's client strings and hands them to the others (window.finderMsg). */
export const MESSAGES_SCRIPT = "messages.js";

/** The id of the JSON block that hands the page's client strings to the scripts. */
export const CLIENT_MESSAGES_ID = "i18n-messages";


/**
 * The hreflang alternates of a public page: its address in each language (docs/languages.md,
 * "Addresses"), the root language's as x-default. `absoluteUrl` is the page's address in the root
 * language (publicUrl); each language's prefix goes after the base path.
 */
export function alternateLinks(absoluteUrl: string): string {
  const site = currentSite();
  const url = new URL(absoluteUrl);
  const addressIn = (language: Language) => {
    if (!site || language === site.rootLanguage) return url.toString();
    const copy = new URL(url);
    copy.pathname = `${site.basePath}/${language}${url.pathname.slice(site.basePath.length)}`;
    return copy.toString();
  };
  return (
    <>
      {LANGUAGES.map((language) => (
        <link rel="alternate" hreflang={language} href={attr(addressIn(language))} />
      ))}
      <link rel="alternate" hreflang="x-default" href={attr(addressIn(site?.rootLanguage ?? "fr"))} />
    </>
  ) as string;
}

/**
 * htmx settings of every page, kept within the Content-Security-Policy: no injected <style>
 * element for indicators (static/app.css has those rules) and no eval-based features.
 */
export const HTMX_DEFAULTS = { includeIndicatorStyles: false, allowEval: false, allowScriptTags: false } as const;

/** A full HTML document. */
export function Layout(props: LayoutProps): JSX.Element {
  // Head tags are built by the pages from escaped parts (canonical, OpenGraph, JSON-LD).
  const safeHead = (props.head ?? "") + (props.alternates ?? "");
  const language = currentLanguage();
  // The catalogue's client strings, for static/messages.js: source text, JSON with "<" escaped.
  const safeClientJson = props.scripts?.includes(MESSAGES_SCRIPT) ? scriptJson(clientMessages(language)) : undefined;
  return (
    "<!doctype html>" +
    (
      <html lang={language}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          {props.description ? <meta name="description" content={props.description} /> : ""}
          {props.noindex ? <meta name="robots" content="noindex, nofollow" /> : ""}
          <meta name="color-scheme" content="light dark" />
          <meta name="htmx-config" content={JSON.stringify({ ...HTMX_DEFAULTS, ...props.htmxConfig })} />
          <link rel="stylesheet" href={assetUrl("app.css")} />
          {/* Without JavaScript, what the scripts would replace is shown (see static/nojs.css). */}
          <noscript>
            <link rel="stylesheet" href={assetUrl("nojs.css")} />
          </noscript>
          <link rel="icon" href={assetUrl("favicon.svg")} type="image/svg+xml" />
          <link rel="manifest" href={pageHref("/manifest.webmanifest")} />
          <link rel="apple-touch-icon" href={assetUrl("icons/apple-touch-icon.png")} />
          <meta name="theme-color" content={THEME_COLOUR} />
          {safeHead}
        </head>
        <body class={props.bodyClass} data-site-path={siteHref("")} data-page-path={pageHref("")} data-session-key={SESSION_STORAGE_KEY} data-time-zone={PARIS_TIME_ZONE}>
          <a class="skip-link" href="#main" safe>
            {t("common.skipToContent")}
          </a>
          {props.children}
          {safeClientJson ? (
            <script type="application/json" id={CLIENT_MESSAGES_ID}>
              {safeClientJson}
            </script>
          ) : (
            ""
          )}
          <script src={assetUrl("vendor/htmx.min.js")} defer></script>
          {(props.scripts ?? []).map((src) => (src.startsWith("/") ? <script src={src} defer></script> : <PageScript path={src} />))}
        </body>
      </html>
    )
  );
}

/**
 * One of the site's browser scripts (a path under /static, "app.js"), linked by its fingerprinted
 * address as an ES module: deferred like the others, run in document order. `data-imports` lists
 * the fingerprinted addresses of the modules it imports, which have no tag of their own, so that
 * static/offline.js can keep them for offline use on the first visit. `async` runs it as soon as it
 * is loaded (the sheet editor draws its card before the rest of the page is parsed).
 */
export function PageScript(props: { path: string; async?: boolean }): JSX.Element {
  const imports = moduleUrls(props.path);
  return <script src={assetUrl(props.path)} type="module" async={props.async} data-imports={imports.length ? imports.join(" ") : undefined}></script>;
}

/** The public site header. */
export function SiteHeader(props: { children?: Children; /** The sliding banner, shown above the bar. */ banner?: PublicBanner; /** The preview minute this page was rendered at (never in production). */ preview?: PreviewClock | null; /** What the switch links to (see LanguageSwitch). */ languagePath?: string }): JSX.Element {
  return (
    <header class="site-header">
      {props.banner ? <SlidingBanner banner={props.banner} /> : ""}
      {props.preview ? <PreviewBadge preview={props.preview} /> : ""}
      <a class="brand" href={pageHref("/")}>
        {SITE_NAME}
      </a>
      <nav aria-label={t("site.nav")}>
        <a href={pageHref("/")} safe>
          {t("site.nav.events")}
        </a>
        <MyNightLink />
        <a href={pageHref("/submit-event")} safe>
          {t("site.nav.submit")}
        </a>
        <a href={pageHref("/feature-event")} safe>
          {t("site.nav.promote")}
        </a>
        <LanguageSwitch path={props.languagePath} />
      </nav>
      {props.children}
    </header>
  );
}

/**
 * "Aperçu : 21 juin 21:30" / "Preview: 21 June 21:30" on a page rendered at a preview minute
 * (docs/public-pages.md, "Preview clock"), with the way out. `data-preview-at` hands the minute to
 * the page scripts, so live states and near me read the same clock as the server.
 */
export function PreviewBadge(props: { preview: PreviewClock }): JSX.Element {
  const when = `${formatDayMonth(props.preview.date)} ${props.preview.time}`;
  return (
    <p class="preview-badge" role="status" data-preview-at={String(props.preview.at.getTime())} title={t("preview.badgeTitle")}>
      <strong safe>{t("preview.badge", { when })}</strong>{" "}
      <a href={`?${PREVIEW_PARAM}=${PREVIEW_OFF}`} rel="nofollow" safe>
        {t("preview.leave")}
      </a>
    </p>
  );
}

/** The address of the FR/EN switch: the same page (`path`, the request's path without its query by default) in `language`. */
export function languageSwitchPath(language: Language, path: string = currentPath()): string {
  return pageHref(path, language);
}

/**
 * The FR/EN switch: a plain link to the same page in the other language. `path` is given by a page
 * whose cache key holds its whole query (the homepage's canonical filters), so the filters carry over.
 */
export function LanguageSwitch(props: { path?: string } = {}): JSX.Element {
  const other: Language = currentLanguage() === "fr" ? "en" : "fr";
  return (
    <a class="language-switch" href={languageSwitchPath(other, props.path)} hreflang={other} lang={other} title={t("site.language.switchLabel")} data-language-switch={other} safe>
      {t("site.language.switch")}
    </a>
  );
}

/** The public site footer. */
export function SiteFooter(props: { languagePath?: string } = {}): JSX.Element {
  return (
    <footer class="site-footer">
      <p>
        {SITE_NAME} · <span safe>{t("site.footer.tagline")}</span> · <a href={pageHref("/privacy")} safe>{t("site.footer.privacy")}</a> · <a href={pageHref("/terms")} safe>{t("site.footer.terms")}</a> ·{" "}
        <a href={languageResourceHref("/calendar.ics")} safe>
          {t("site.footer.feed")}
        </a>{" "}
        · <a href={siteHref("/api/docs")} safe>{t("site.footer.api")}</a> · <LanguageSwitch path={props.languagePath} />
      </p>
    </footer>
  );
}
