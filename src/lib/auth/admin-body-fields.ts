// The fields each admin API write accepts at the top of its JSON body (see docs/auth-and-admin.md,
// "Unknown fields"). A body naming any other field is refused as invalid naming it, before the
// route reads it: a misnamed field (`backupId` for `id`) must never fall back to a default and act.
// The admin guard applies the rule to every guarded write; a test checks that every admin write
// route of the app is listed here, so a new route cannot be left out.

import { isPlainObject } from "../http/responses.ts";
import { invalid, type Invalid } from "../outcome.ts";

/** `null`: the body is not JSON (a CSV upload) and is not checked here. */
export const ADMIN_BODY_FIELDS: Readonly<Record<string, readonly string[] | null>> = {
  "POST /api/admin/login": ["key"],
  "POST /api/admin/logout": [],
  "DELETE /api/admin/tokens/sessions/*": [],
  "POST /api/admin/tokens/revoke": [],
  "POST /api/admin/sheet/upload": null,
  "POST /api/admin/sheet/import/preview": [],
  "POST /api/admin/sheet/import": [],
  "POST /api/admin/backups": [],
  "POST /api/admin/backups/restore": ["id"],
  "POST /api/admin/revalidate": [],
  "POST /api/admin/recovery/:action": ["confirm"],
  "PUT /api/admin/submissions/settings": ["enabled"],
  "POST /api/admin/submissions/:id/accept": ["eventKey"],
  "POST /api/admin/submissions/:id/decline": ["reason", "note"],
  "POST /api/admin/changes/:id/accept": [],
  "POST /api/admin/changes/:id/refuse": ["reason"],
  "POST /api/admin/submissions/:id/edit-link": [],
  "POST /api/admin/submissions/:id/edit-link/revoke": [],
  "POST /api/admin/reports/:eventKey/cancel": [],
  "POST /api/admin/reports/:eventKey/dismiss": [],
  "PUT /api/admin/banner": ["enabled", "messages", "messageDurationMs", "desktopMessageCount"],
  "PUT /api/admin/editions": ["year", "from", "to", "night", "reset"],
  "POST /api/admin/editions/start": ["year", "carryOver"],
  "PUT /api/admin/venues/:id/pin": ["coordinates", "lat", "lng"],
  "PATCH /api/admin/sheet": ["baseRevision", "cells", "addRows", "deleteRowIds", "addColumns", "publish", "confirm"],
  "PUT /api/admin/sheet": ["baseRevision", "columns", "rows", "publish", "confirm"],
  "POST /api/admin/sheet/publish": ["confirm"],
  "POST /api/admin/sheet/discard": [],
  "POST /api/admin/events/status": ["event", "status", "note"],
  "POST /api/admin/sheet/revisions/:id/restore": [],
  "POST /api/admin/orders/test": ["eventKey", "tier", "startAt", "durationHours", "confirm", "fulfil"],
  "PATCH /api/admin/orders/:id": ["status"],
  "DELETE /api/admin/orders/:id": [],
  "POST /api/admin/orders/:id/fulfil": ["eventKey", "tier", "startAt", "durationHours", "confirm"],
  "POST /api/admin/outbox/:id/resend": [],
  "POST /api/admin/placements/:tier": ["eventKey", "startAt", "durationHours", "confirm"],
  "POST /api/admin/placements/:tier/clear-queue": [],
  "POST /api/admin/placements/:tier/clear-history": [],
  "POST /api/admin/placements/:tier/:id/cancel": [],
  "POST /api/admin/placements/:tier/:id/reschedule": ["startAt", "durationHours"],
  "POST /api/admin/users/erase": ["email"],
};

/** The top-level fields of `body` that `allowed` does not name (none unless it is a JSON object). */
export function unknownFields(body: unknown, allowed: readonly string[]): string[] {
  return isPlainObject(body) ? Object.keys(body).filter((field) => !allowed.includes(field)) : [];
}

/** The refusal naming `unknown`, when there is any. */
export function unknownFieldsRefusal(unknown: readonly string[]): Invalid | undefined {
  if (unknown.length === 0) return undefined;
  return invalid(
    `Unknown field${unknown.length === 1 ? "" : "s"}: ${unknown.map((f) => f.slice(0, 100)).join(", ")}`,
    unknown.map((field) => ({ field: field.slice(0, 100), message: "Unknown field" })),
  );
}

/**
 * The refusal of a guarded admin write whose JSON body names a field its route (`"METHOD /path"` as
 * registered) does not accept. The body is read from a copy, so the route still reads it whole; a
 * body that is empty, not JSON or not an object is left to the route's own answer.
 */
export async function unknownAdminFieldsRefusal(request: Request, route: string): Promise<Invalid | undefined> {
  const allowed = ADMIN_BODY_FIELDS[route];
  if (!allowed || request.body === null) return undefined;
  const text = await request.clone().text();
  if (text.trim() === "" || !text.trimStart().startsWith("{")) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return unknownFieldsRefusal(unknownFields(body, allowed));
}
