// The sign-in form's HTML endpoints: POST /sign-in and POST /sign-out (plus GET /sign-in for
// browsers without JavaScript). They run the same checks as POST /api/auth/verify, which stays
// JSON-only; these answer the form fragment for htmx and redirect plain form posts.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { formStatusOf, markup, NO_STORE_HEADERS, refusalHeaders } from "../../lib/http/responses.ts";
import { hxRedirect, isHtmx, pageOrFragment } from "../../lib/http/htmx.ts";
import { readForm } from "../../lib/http/forms.ts";
import { clientIp } from "../../lib/client-ip.ts";
import { isCrossSiteRequest } from "../../lib/http/origin.ts";
import { signInVisitor, SIGN_IN_MESSAGES, type SignInOutcome } from "../../lib/auth/sign-in.ts";
import { clearedSessionCookie, sessionCookie, USER_SESSION_COOKIE, type SessionCookieOptions } from "../../lib/auth/cookies.ts";
import { verifyUserToken } from "../../lib/auth/user-token.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { listSessionTopGenres } from "../../lib/tracking/preferences.ts";
import { GenreQuickChips } from "../components/genre-quick-chips.view.tsx";
import { SignInForm, type SignInFormProps } from "../components/sign-in.view.tsx";
import { t } from "../../lib/i18n/index.ts";
import { SITE_NAME } from "../../lib/links.ts";

/** The source recorded for sign-ins made with the site's own form. */
export const SIGN_IN_FORM_SOURCE = "finder-form";

function SignInPage(props: SignInFormProps): JSX.Element {
  return (
    <Layout title={t("signIn.title", { site: SITE_NAME })} noindex>
      <SiteHeader />
      <main id="main" class="page narrow">
        <SignInForm {...props} />
      </main>
      <SiteFooter />
    </Layout>
  );
}

function formResponse(request: Request, props: SignInFormProps, status = 200, headers: Record<string, string> = {}): Response {
  return pageOrFragment(request, { page: () => markup(SignInPage(props)), fragment: () => markup(SignInForm(props)) }, { status, headers: { ...NO_STORE_HEADERS, vary: "HX-Request", ...headers } });
}

/**
 * Where a plain form post returns: the same-origin page it came from, else the homepage. Never a
 * path a browser reads as another host (`//host`, `/\host`).
 */
export function returnPath(request: Request): string {
  try {
    const referer = new URL(request.headers.get("referer") ?? "");
    const path = referer.pathname + referer.search;
    if (referer.host === new URL(request.url).host && !referer.pathname.startsWith("/sign-") && /^\/(?![/\\])/.test(path)) return path;
  } catch {}
  return "/";
}

/** The answer of a sign-in form post; on success the session cookie is set through `setCookie`. */
function signInAnswer(deps: Pick<Deps, "config">, request: Request, values: SignInFormProps["values"], outcome: SignInOutcome, setCookie: (options: SessionCookieOptions) => void): Response {
  if (!outcome.ok) {
    const error =
      outcome.reason === "invalid"
        ? { field: "issues" in outcome ? outcome.issues[0].field : "body", message: outcome.error }
        : { field: "body", message: outcome.error, text: t(outcome.reason === "limited" ? "signIn.error.tooMany" : "signIn.error.failed") };
    return formResponse(request, { values, error }, formStatusOf(outcome.reason), refusalHeaders(outcome));
  }
  setCookie(sessionCookie(deps.config, outcome.token, outcome.maxAge));
  if (!isHtmx(request)) return hxRedirect(request, returnPath(request), NO_STORE_HEADERS);
  return formResponse(request, { signedInEmail: outcome.email });
}

/** The signed-in visitor's top genres as quick chips; none when signed out or unavailable. */
async function genreChips(deps: Deps, sessionId: string | undefined): Promise<Response> {
  let genres: string[] = [];
  // Only what this browser session recorded: another sign-in with the same email is someone else.
  if (sessionId) {
    try {
      genres = await listSessionTopGenres(deps.db, sessionId);
    } catch (error) {
      deps.log.warn("account", "Genre preferences unavailable", undefined, error);
    }
  }
  return new Response(markup(<GenreQuickChips genres={genres} />), { headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE_HEADERS } });
}

/** GET /sign-in, POST /sign-in, POST /sign-out */
export function accountRoutes(deps: Deps) {
  return new Elysia({ name: "account-pages" })
    // Per visitor, never cached: the top 3 genres of this signed-in browser session as quick chips.
    .get("/account/genres", async ({ request, cookie }) => {
      const session = await verifyUserToken(deps.signingKey, cookie[USER_SESSION_COOKIE].value, deps.now());
      return genreChips(deps, session?.sid);
    })
    .get("/sign-in", async ({ request, cookie }) => {
      const session = await verifyUserToken(deps.signingKey, cookie[USER_SESSION_COOKIE].value, deps.now());
      return formResponse(request, { signedInEmail: session?.email });
    })
    .post(
      "/sign-in",
      async ({ request, cookie, server }) => {
        if (isCrossSiteRequest(deps.config, request)) return formResponse(request, { error: { field: "body", message: SIGN_IN_MESSAGES.crossSite, text: t("signIn.error.crossSite") } }, 403);
        const form = await readForm(request);
        // An unchecked consent box is absent from the form: for this form that means "no".
        const body = { email: form.email, firstName: form.firstName, lastName: form.lastName, consent: form.consent !== undefined, source: SIGN_IN_FORM_SOURCE };
        const values = { email: form.email?.slice(0, 254), firstName: form.firstName?.slice(0, 80), lastName: form.lastName?.slice(0, 80), consent: body.consent };
        const outcome = await signInVisitor(deps, body, clientIp(deps.config, request, server));
        return signInAnswer(deps, request, values, outcome, (options) => cookie[USER_SESSION_COOKIE].set(options));
      },
      { parse: "none" },
    )
    .post(
      "/sign-out",
      ({ request, cookie }) =>
        {
          cookie[USER_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
          if (!isHtmx(request)) return hxRedirect(request, returnPath(request), NO_STORE_HEADERS);
          return formResponse(request, {});
        },
      { parse: "none" },
    );
}
