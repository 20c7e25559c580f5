// Error page and error fragment: what a visitor sees for 404s and failures (never internals).

import { pageHref } from "../../lib/links.ts";
import { Layout, SITE_NAME, SiteFooter, SiteHeader } from "./layout.tsx";
import { markup } from "../../lib/http/responses.ts";
import { currentLanguage, type Language, t } from "../../lib/i18n/index.ts";
import type { ErrorViews } from "../../lib/http/errors.ts";

/** The id of the error fragment root, for htmx targets. */
export const ERROR_FRAGMENT_ID = "error-message";

function heading(status: number): string {
  if (status === 404) return t("error.notFound");
  if (status === 429) return t("error.tooMany");
  if (status >= 500) return t("error.failed");
  return t("error.refused");
}

/** The error as a fragment, for htmx swaps. */
export function ErrorFragment(props: { status: number; message: string }): JSX.Element {
  return (
    <div id={ERROR_FRAGMENT_ID} class="notice notice-error" role="alert">
      <strong safe>{heading(props.status)}</strong> <span safe>{props.message}</span>
    </div>
  );
}

/** The error as a full page. */
export function ErrorPage(props: { status: number; message: string }): JSX.Element {
  return (
    <Layout title={`${heading(props.status)} | ${SITE_NAME}`} noindex>
      <SiteHeader />
      <main id="main" class="page narrow">
        <p class="kicker" safe>
          {t("error.kicker", { status: String(props.status) })}
        </p>
        <h1 safe>{heading(props.status)}</h1>
        <p safe>{props.status === 404 ? t("error.notFoundText") : props.message}</p>
        <p>
          <a class="button" href={pageHref("/")} safe>
            {t("error.back")}
          </a>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** The renderers the error handler uses, in the request's language (set by the language plugin from its URL). */
export function errorViews(_defaultLanguage: Language): ErrorViews {
  return {
    page: (status, message) => markup(ErrorPage({ status, message: localMessage(status, message) })),
    fragment: (status, message) => markup(ErrorFragment({ status, message: localMessage(status, message) })),
  };
}

/**
 * The error's detail as the visitor reads it: the handler's own text in English (the API's
 * wording), a general sentence of the catalogue in another language.
 */
function localMessage(status: number, message: string): string {
  if (currentLanguage() === "en") return message;
  if (status === 404) return t("error.notFoundText");
  if (status === 429) return t("error.tooManyText");
  if (status >= 500) return t("error.failedText");
  return t("error.refusedText");
}
