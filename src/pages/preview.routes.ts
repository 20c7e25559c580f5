// `?at=` on any public page, outside production (docs/public-pages.md, "Preview clock"): a valid
// Paris minute is kept in a session cookie and the visitor is sent to the same address without
// `at` (302), so every link, htmx request and map fetch that follows carries the preview without
// rewriting any of them; `?at=off` (or empty) clears it; anything else answers a 400 page naming the form.
// In production this plugin is not installed: `at` is an unknown parameter there, dropped like any other.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { markup, PER_REQUEST_HEADERS } from "../lib/http/responses.ts";
import { PREVIEW_PARAM, previewAllowed, previewCookieHeader, previewRequestOf, withoutPreviewParam } from "../lib/preview-clock.ts";
import { inLanguage, t } from "../lib/i18n/index.ts";
import { languageOfUrl, siteRootOf } from "./language.plugin.ts";
import { ErrorPage } from "./components/error.view.tsx";

/** Paths that are not public pages: the API, the console and static files never read `at`. */
const NOT_PAGES = /^\/(api|admin|static)(\/|$)/;

export function previewRoutes(deps: Deps) {
  if (!previewAllowed(deps.config)) return new Elysia({ name: "preview-clock-off" });
  return new Elysia({ name: "preview-clock" }).onRequest(({ request, set }) => {
    if (request.method !== "GET" || !request.url.includes(`${PREVIEW_PARAM}=`)) return;
    const url = new URL(request.url);
    if (NOT_PAGES.test(url.pathname)) return;
    const asked = previewRequestOf(url.searchParams);
    if (!asked) return;
    if (asked.kind === "invalid") {
      // The page names the expected form in the visitor's language (the error handler would
      // replace a non-English detail by a general sentence).
      const { language } = languageOfUrl(request.url, siteRootOf(deps));
      set.status = 400;
      set.headers["content-type"] = "text/html; charset=utf-8";
      Object.assign(set.headers, PER_REQUEST_HEADERS);
      return inLanguage(language, () => markup(ErrorPage({ status: 400, message: t("preview.invalid", { value: asked.value }) })));
    }
    set.status = 302;
    set.headers["location"] = withoutPreviewParam(url);
    set.headers["set-cookie"] = previewCookieHeader(asked.kind === "set" ? asked.clock : null);
    Object.assign(set.headers, PER_REQUEST_HEADERS);
    return "";
  });
}
