// Admin API of the editions (see docs/editions.md, "The window setting" and "Rollover"): read the
// windows set, the current edition and the archives; set one year's window or put it back on the
// default (that year only; every cached render is dropped, here and on the other instances); start
// the coming edition.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, readObjectBody } from "../lib/http/responses.ts";
import { unlessRefused } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { currentEdition, editionState } from "../lib/events/editions.ts";
import { findEditionSettings, parseEditionWindowUpdate, saveEditionWindow } from "../lib/site/edition-settings.ts";
import { parseRolloverInput, startEdition } from "../lib/admin/rollover.ts";
import { listEditionArchives } from "../lib/store/edition-archive.ts";

/** The current edition with its state, as the API shows it. */
function currentOf(deps: Deps) {
  const now = deps.now();
  const edition = currentEdition(now, deps.editions.windows);
  return { ...edition, state: editionState(edition, now) };
}

/** GET /api/admin/editions, PUT /api/admin/editions, POST /api/admin/editions/start */
export function adminEditionsApi(deps: Deps) {
  return new Elysia({ name: "admin-editions-api" })
    .use(adminGuard(deps))
    .get("/api/admin/editions", async () => jsonNoStore({ success: true, settings: await findEditionSettings(deps), current: currentOf(deps), archives: await listEditionArchives(deps.db) }), { isAdmin: true })
    .post(
      "/api/admin/editions/start",
      async ({ request, admin }) => {
        const input = unlessRefused(parseRolloverInput(await readObjectBody(request)));
        const done = unlessRefused(await startEdition(deps, input, actorOf(admin)));
        return jsonNoStore({ success: true, ...done, current: currentOf(deps) });
      },
      { isAdmin: true, parse: "none" },
    )
    .put(
      "/api/admin/editions",
      async ({ request, admin }) => {
        const update = unlessRefused(parseEditionWindowUpdate(await readObjectBody(request)));
        const saved = await saveEditionWindow(deps, update, actorOf(admin));
        return jsonNoStore({ success: true, settings: saved.settings, edition: saved.edition, current: currentOf(deps) });
      },
      { isAdmin: true, parse: "none" },
    );
}
