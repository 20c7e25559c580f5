// Error page and error fragment: what a visitor sees for 404s and failures (never internals).

import { Layout, SiteFooter, SiteHeader } from "./layout.tsx";
import { markup } from "../../lib/http.ts";

/** The id of the error fragment root, for htmx targets. */
export const ERROR_FRAGMENT_ID = "error-message";

function heading(status: number): string {
  if (status === 404) return "Page not found";
  if (status === 429) return "Slow down a little";
  if (status >= 500) return "Something went wrong";
  return "Request not accepted";
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
    <Layout title={`${heading(props.status)} | finder`} noindex>
      <SiteHeader />
      <main id="main" class="page narrow">
        <p class="kicker" safe>{`Error ${props.status}`}</p>
        <h1 safe>{heading(props.status)}</h1>
        <p safe>{props.status === 404 ? "We could not find that page. The event may have been removed or the link mistyped." : props.message}</p>
        <p>
          <a class="button" href="/">
            Back to all events
          </a>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** The renderers the error handler uses. */
export const errorViews = {
  page: (status: number, message: string) => markup(ErrorPage({ status, message })),
  fragment: (status: number, message: string) => markup(ErrorFragment({ status, message })),
};
