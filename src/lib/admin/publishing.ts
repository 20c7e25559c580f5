// Publishing from the console (see docs/console.md, "Publishing"): what the working sheet holds
// that visitors do not see yet, publishing it, discarding it, and an event's status set in one
// action. Publishing the sheet runs the schema gate; a status change publishes only itself, so
// drafts elsewhere stay drafts. What is unpublished is compared in drafts.ts.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { HOMEPAGE } from "../serving/invalidation.ts";
import type { PublishDeps } from "../events/publish.ts";
import { normaliseEventKey } from "../sheet/keys.ts";
import { EVENT_STATUSES, isEventStatus, normaliseStatusNote, STATUS_NOTE_MAX, type EventStatus } from "../sheet/status.ts";
import { readPublishedSheet, type PublishedSheetDeps } from "../store/published.ts";
import { patchStoreSheet } from "../store/patch.ts";
import { readStoreSheet, saveStoreSheet } from "../store/store.ts";
import { allChanges } from "./drafts.ts";
import { INVALID_PAYLOAD, writeSheetEdits, type SheetWriteResult } from "./sheet-editor.ts";
import { invalid, refused, type Invalid, type Refused } from "../outcome.ts";
import { recordActivity } from "./activity.ts";
import type { FieldIssue } from "../http/responses.ts";

/**
 * Publishes the working sheet: the schema gate, a "publish" revision, warm-up and homepage
 * revalidation. Without `confirm`, a sheet that renames events under their kept Event Keys or
 * removes published rows is held: nothing is written and the answer carries the review.
 */
export async function publishDrafts(deps: PublishDeps & PublishedSheetDeps, actor: string, confirm = false): Promise<SheetWriteResult> {
  return writeSheetEdits(deps, { publish: true, confirm, baseRevision: 0, cells: [], addRows: [], deleteRowIds: [], addColumns: [] }, actor);
}

/** Validates the body of POST /api/admin/sheet/publish: nothing, or `{confirm: true|false}`; any other field is refused. */
export function parsePublishInput(body: unknown): { ok: true; confirm: boolean } | Invalid<Issue> {
  if (body === undefined) return { ok: true, confirm: false };
  if (body === null || typeof body !== "object" || Array.isArray(body)) return invalid(INVALID_PAYLOAD, [{ field: "body", message: "Expected a JSON object" }]);
  const record = body as Record<string, unknown>;
  const issues: Issue[] = Object.keys(record).filter((k) => k !== "confirm").map((field) => ({ field, message: "Unknown field" }));
  if (record.confirm !== undefined && typeof record.confirm !== "boolean") issues.push({ field: "confirm", message: "confirm must be true or false" });
  return issues.length ? invalid(INVALID_PAYLOAD, issues) : { ok: true, confirm: record.confirm === true };
}

/** Puts the working sheet back to the published one (rows keep their ids). Nothing is published. */
export async function discardDrafts(deps: PublishDeps, actor: string): Promise<{ ok: true; discarded: number } | Refused<"conflict">> {
  const [working, published] = await Promise.all([readStoreSheet(deps.db), readPublishedSheet(deps.db)]);
  if (!published) return refused("conflict", "Nothing has been published yet");
  const changes = allChanges(working, published).length;
  if (changes === 0) return { ok: true, discarded: 0 };
  const saved = await saveStoreSheet(
    deps.db,
    { headers: published.columns.map((c) => c.label), rows: published.rows.map((r) => published.columns.map((c) => r.values[c.key] ?? "")), ids: published.rows.map((r) => r.id), columnKeys: published.columns.map((c) => c.key) },
    { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "discard", actor, now: deps.now(), publish: false },
  );
  if (!saved.ok) return refused("conflict", saved.error);
  deps.log.info("sheet-editor", "Drafts discarded", { rows: changes, by: actor });
  await recordActivity(deps, { actor, action: "sheet.discard", targetType: "sheet", targetId: String(saved.revision), outcome: "ok", detail: { rows: changes } });
  return { ok: true, discarded: changes };
}

/** A status change as the console and the API send it. */
export interface StatusInput {
  event: string;
  status: EventStatus;
  note: string;
}

type Issue = FieldIssue;

/** Validates a status body: `event` (an event key or an exact title), `status` and an optional `note`. */
export function parseStatusInput(body: Record<string, unknown>): { ok: true; input: StatusInput } | Invalid<Issue> {
  const issues: Issue[] = [];
  const event = typeof body.event === "string" ? body.event.trim() : "";
  if (event === "" || event.length > 200) issues.push({ field: "event", message: "Name the event by its key or its exact title" });
  if (!isEventStatus(body.status)) issues.push({ field: "status", message: `status must be one of ${EVENT_STATUSES.join(", ")}` });
  const rawNote = body.note === undefined ? "" : body.note;
  if (typeof rawNote !== "string") issues.push({ field: "note", message: "note must be text" });
  else if (rawNote.trim().length > STATUS_NOTE_MAX) issues.push({ field: "note", message: `note is at most ${STATUS_NOTE_MAX} characters` });
  else if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(rawNote)) issues.push({ field: "note", message: "note holds control characters" });
  if (issues.length) return invalid(INVALID_PAYLOAD, issues);
  return { ok: true, input: { event, status: body.status as EventStatus, note: normaliseStatusNote(rawNote as string) } };
}

/** The stored row an event key or title names: the row's own key, an occurrence key of a multi-day row, or a unique exact title. */
async function findRowFor(deps: PublishDeps, event: string): Promise<{ id: string; title: string; eventKey: string } | { error: string }> {
  const key = normaliseEventKey(event);
  const byCell = async (field: "eventKey" | "title", value: string) =>
    rowsOf<{ id: string; title: string; key: string }>(
      await deps.db.execute(sql`select id::text as id, row_data->>'title' as title, row_data->>'eventKey' as key from event_store_rows
        where ${field === "eventKey" ? sql`row_data->>'eventKey' = ${value}` : sql`lower(row_data->>'title') = lower(${value})`} limit 3`),
    );
  if (key) {
    const [row] = await byCell("eventKey", key);
    if (row) return { id: row.id, title: row.title ?? "", eventKey: row.key };
    // An occurrence of a multi-day row: its first occurrence carries the row's key.
    const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
    const occurrence = events.find((e) => e.eventKey === key);
    const first = occurrence && events.find((e) => e.seriesKey !== null && e.seriesKey === occurrence.seriesKey && e.occurrenceIndex === 1 && e.eventName === occurrence.eventName);
    if (first) {
      const [owner] = await byCell("eventKey", first.eventKey);
      if (owner) return { id: owner.id, title: owner.title ?? "", eventKey: owner.key };
    }
    return { error: "No event has this key" };
  }
  const matches = await byCell("title", event);
  if (matches.length === 1) return { id: matches[0].id, title: matches[0].title ?? "", eventKey: matches[0].key };
  return { error: matches.length ? "Several events have this title: name it by its key" : "No event has this key or title" };
}

/** The outcome of a status change. */
export type StatusResult = { ok: true; eventKey: string; title: string; status: EventStatus; note: string } | { ok: false; reason: "invalid" | "not_found"; error: string; issues?: Issue[] };

/**
 * Sets an event's status and public reason, and publishes that change alone (the row's other
 * drafts stay drafts): the homepage and every page built from the published sheet show it at once.
 */
export async function setEventStatus(deps: PublishDeps, input: StatusInput, actor: string): Promise<StatusResult> {
  const row = await findRowFor(deps, input.event);
  if ("error" in row) return { ok: false, reason: "not_found", error: row.error };
  const value = input.status === "scheduled" ? "" : input.status;
  const result = await patchStoreSheet(
    deps.db,
    { cells: [{ rowId: row.id, key: "status", value }, { rowId: row.id, key: "statusNote", value: input.note }] },
    { updatedBy: "admin-sheet-editor", trigger: "status", actor, now: deps.now(), publish: "changes" },
  );
  if (!result.ok) return { ok: false, reason: "invalid", error: result.error, ...(result.kind === "invalid" ? { issues: result.issues } : {}) };
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags] });
  await recordActivity(deps, { actor, action: "event.status", targetType: "event", targetId: row.eventKey, outcome: "ok", detail: { status: input.status, ...(input.note ? { note: input.note } : {}) } });
  deps.log.info("sheet-editor", "Event status set", { eventKey: row.eventKey, status: input.status, by: actor });
  return { ok: true, eventKey: row.eventKey, title: row.title, status: input.status, note: input.note };
}
