// /admin/operations/editions (see docs/editions.md): the Editions card and its two forms, setting
// (or resetting) one year's window and starting the coming edition. Actions call lib directly;
// for htmx every answer is the card, with the message next to the field at fault on a refusal;
// without htmx it is the whole page with the card in the same state.

import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { privateFragment, statusOf } from "../../../lib/http/responses.ts";
import { isHtmx } from "../../../lib/http/htmx.ts";
import { readForm } from "../../../lib/http/forms.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { currentEdition, editionState } from "../../../lib/events/editions.ts";
import { findEditionSettings, parseEditionWindowUpdate, saveEditionWindow } from "../../../lib/site/edition-settings.ts";
import { MAX_CARRY_OVER, parseRolloverInput, startEdition } from "../../../lib/admin/rollover.ts";
import { listEditionArchives } from "../../../lib/store/edition-archive.ts";
import { readStoreSheet } from "../../../lib/store/store.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { EDITIONS_PATH, EditionsCard, type EditionsCardProps, type StartSection } from "./editions.view.tsx";

type EditionsDeps = Pick<Deps, "db" | "kv" | "log" | "now" | "editions">;
type CardExtra = Partial<Pick<EditionsCardProps, "notice" | "windowDraft" | "windowErrors">> & { start?: Partial<Pick<StartSection, "checked" | "errors">> };

/** Loads the card: the start section only while the coming edition is upcoming and the last one is not archived. */
export async function loadEditionsCard(deps: EditionsDeps, extra: CardExtra = {}): Promise<EditionsCardProps> {
  const now = deps.now();
  const [settings, archives] = await Promise.all([findEditionSettings(deps), listEditionArchives(deps.db)]);
  const edition = currentEdition(now, deps.editions.windows);
  const current = { ...edition, state: editionState(edition, now) };
  let start: StartSection | null = null;
  if (current.state === "upcoming" && !archives.some((a) => a.year === current.year - 1)) {
    const rows = (await readStoreSheet(deps.db))?.rows ?? [];
    start = {
      rows: rows.slice(0, MAX_CARRY_OVER).map((row) => ({ id: row.id, title: row.values.title ?? "", date: row.values.date ?? "", venue: row.values.location ?? "" })),
      total: rows.length,
      checked: extra.start?.checked ?? [],
      errors: extra.start?.errors ?? {},
    };
  }
  const { start: _start, ...rest } = extra;
  return { current, settings, archives, start, ...rest };
}

/** Every value of every field of a form body (a row list posts `carryOver` once per ticked row). */
async function readFormLists(request: Request): Promise<URLSearchParams> {
  try {
    if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      const fields = new URLSearchParams();
      for (const [name, value] of (await request.formData()).entries()) if (typeof value === "string") fields.append(name, value);
      return fields;
    }
    return new URLSearchParams(await request.text());
  } catch {
    return new URLSearchParams();
  }
}

const WINDOW_FIELDS = ["year", "from", "to", "night"] as const;
const isWindowField = (field: string): field is (typeof WINDOW_FIELDS)[number] => (WINDOW_FIELDS as readonly string[]).includes(field);

/** GET /admin/operations/editions, POST …/editions/window, POST …/editions/start */
export function editionsRoutes(deps: Deps) {
  // The card for htmx, the page holding it otherwise, with the status of the outcome.
  const answer = async (request: Request, extra: CardExtra, status = 200) => {
    const props = await loadEditionsCard(deps, extra);
    if (isHtmx(request)) return privateFragment(<EditionsCard {...props} />, status);
    const page = await consoleResponse(deps, request, "operations", "Editions", () => <EditionsCard {...props} />);
    return new Response(page.body, { status, headers: page.headers });
  };

  return new Elysia({ name: "admin-editions-pages" })
    .use(adminPageGuard(deps))
    .get(
      EDITIONS_PATH,
      async ({ request }) => {
        const props = await loadEditionsCard(deps);
        return consoleResponse(deps, request, "operations", "Editions", () => <EditionsCard {...props} />);
      },
      { isAdmin: true },
    )
    .post(
      `${EDITIONS_PATH}/window`,
      async ({ request, admin }) => {
        const form = await readForm(request);
        const body: Record<string, string> = {};
        for (const name of [...WINDOW_FIELDS, "reset"]) if (form[name] !== undefined) body[name] = form[name];
        const update = parseEditionWindowUpdate(body);
        if ("ok" in update) {
          const draft = { year: form.year ?? "", from: form.from ?? "", to: form.to ?? "", night: form.night ?? "" };
          const issue = update.issues.find((i) => isWindowField(i.field));
          // A reset refused (its year) has no field in the form: its message goes on top.
          if (!issue || body.reset !== undefined) return answer(request, { notice: { kind: "error", text: `${update.error}; nothing was saved.` } }, statusOf(update.reason));
          return answer(request, { windowDraft: draft, windowErrors: { [issue.field]: issue.message } }, statusOf(update.reason));
        }
        const saved = await saveEditionWindow(deps, update, actorOf(admin));
        const e = saved.edition;
        const text = body.reset !== undefined ? `${e.year} is back on the default window: ${e.from} to ${e.to}, the night on ${e.night}.` : `Window of ${e.year} saved: ${e.from} to ${e.to}, the night on ${e.night}.`;
        return answer(request, { notice: { kind: "ok", text } });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${EDITIONS_PATH}/start`,
      async ({ request, admin }) => {
        const form = await readFormLists(request);
        const checked = form.getAll("carryOver");
        // A console-only safety: the API takes the request as it comes, the console asks for the tick first.
        if (form.get("confirm") !== "yes") {
          const text = "Tick the confirmation box to start the edition; nothing was archived.";
          return answer(request, { start: { checked, errors: { confirm: text } } }, 400);
        }
        const input = parseRolloverInput({ year: form.get("year") ?? "", carryOver: checked });
        const done = "ok" in input ? input : await startEdition(deps, input, actorOf(admin));
        if (!done.ok) {
          const issue = "issues" in done ? done.issues.find((i) => i.field === "carryOver") : undefined;
          if (issue) return answer(request, { start: { checked, errors: { carryOver: `${done.error}; nothing was archived.` } } }, statusOf(done.reason));
          return answer(request, { notice: { kind: "error", text: `${done.error}; nothing was archived.` }, start: { checked } }, statusOf(done.reason));
        }
        const backup = done.backupId ? `backup ${done.backupId} taken first` : "no new backup (the newest one already held this store)";
        const text = `The ${done.year} edition is started: archived ${done.archived.rowCount} events of ${done.archived.year} (browsable at /${done.archived.year}/), carried ${done.carried} ${done.carried === 1 ? "row" : "rows"} over as drafts; ${backup}.`;
        return answer(request, { notice: { kind: "ok", text } });
      },
      { isAdmin: true, parse: "none" },
    );
}
