// The homepage route. (The full calendar page arrives with the public-site work.)

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { html } from "../../lib/http.ts";

/** GET / */
export function homeRoutes(_deps: Deps) {
  return new Elysia({ name: "home" }).get("/", () =>
    html(
      <Layout title="finder · Fête de la Musique in Paris">
        <SiteHeader />
        <main id="main" class="page">
          <p class="kicker">Paris · Fête de la Musique</p>
          <h1>Discover events across the city</h1>
        </main>
        <SiteFooter />
      </Layout>,
    ),
  );
}
