// POST /event/:eventKey/report: the "Report a problem" form of the event modal (see
// docs/public-pages.md, "Report a problem"). With htmx the answer is the report section (the
// thanks, or the form with its errors); without JavaScript it is a small page with the same
// section and a link back to the event. Never stored.

import { randomUUID } from "node:crypto";
import { Elysia } from "elysia";
import { IDEMPOTENCY_FIELD } from "../../lib/http/idempotency.ts";
import { requestDeadline } from "../../lib/db/write-deadline.ts";
import type { Deps } from "../../deps.ts";
import { markup, NO_STORE_HEADERS, withBodyCap } from "../../lib/http/responses.ts";
import { isCrossSiteRequest } from "../../lib/http/origin.ts";
import { pageOrFragment } from "../../lib/http/htmx.ts";
import { honeypotBody, readJsonOrForm } from "../../lib/http/forms.ts";
import { clientIp } from "../../lib/client-ip.ts";
import { t } from "../../lib/i18n/index.ts";
import { MAX_REPORT_BODY_BYTES, submitReport, type ReportOutcome } from "../../lib/reports/report.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { waitText } from "../submit/submit.view.tsx";
import type { ReportFormState } from "../components/report.view.tsx";
import { ReportPage } from "./report.view.tsx";
import { ReportSection } from "../components/report.view.tsx";

/** The section state, status and headers of an outcome. */
export function reportFormOutcome(outcome: ReportOutcome, values: ReportFormState["values"]): { state: ReportFormState; status: number; headers: Record<string, string>; event?: LiveEvent } {
  switch (outcome.kind) {
    case "received":
      return { state: { done: true }, status: 200, headers: {}, event: outcome.event };
    case "invalid":
      return { state: { values, issues: outcome.issues }, status: 400, headers: {}, event: outcome.event };
    case "limited":
      return { state: { values, error: t("report.tooMany", { wait: waitText(outcome.retryAfter) }) }, status: 429, headers: { "retry-after": String(outcome.retryAfter) }, event: outcome.event };
    case "not_found":
      return { state: { values, error: t("report.notFound") }, status: 404, headers: {} };
    case "unavailable":
      return { state: { values, error: t("report.unavailable") }, status: 503, headers: {} };
    case "invalid_key":
      return { state: { values, error: t("report.invalid") }, status: 400, headers: {} };
    case "key_reused":
      return { state: { values, error: t("report.keyReused") }, status: 409, headers: {} };
  }
}

/** What the visitor sent, for the form shown again, with the form's idempotency key (a fresh one when it came without): sending it again is the same report. */
function echo(fields: Record<string, unknown> | undefined): ReportFormState["values"] {
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 2000) : undefined);
  const key = fields?.[IDEMPOTENCY_FIELD];
  return { kind: text(fields?.kind), text: text(fields?.text), idempotencyKey: typeof key === "string" && key !== "" ? key.slice(0, 200) : randomUUID() };
}

/** POST /event/:eventKey/report */
export function reportRoutes(deps: Deps) {
  return new Elysia({ name: "event-report" }).post(
    "/event/:eventKey/report",
    async ({ request, server, params }) => {
        const key = params.eventKey.slice(0, 64);
        const answer = (state: ReportFormState, status: number, headers: Record<string, string> = {}, event?: LiveEvent) =>
          pageOrFragment(
            request,
            { page: () => markup(<ReportPage eventKey={key} event={event} state={state} />), fragment: () => markup(<ReportSection eventKey={key} state={state} />) },
            { status, headers: { ...NO_STORE_HEADERS, ...headers } },
          );
        if (isCrossSiteRequest(deps.config, request)) return answer({ error: t("report.crossSite") }, 403);
        const capped = await withBodyCap(request, MAX_REPORT_BODY_BYTES);
        if (capped === "too_large") return answer({ error: t("report.tooLarge") }, 413);
        const fields = await readJsonOrForm(capped);
        const outcome = await submitReport(deps, key, honeypotBody(fields) ?? {}, clientIp(deps.config, request, server), { deadline: requestDeadline(request) });
        const { state, status, headers, event } = reportFormOutcome(outcome, echo(fields));
        return answer(state, status, headers, event);
    },
    { parse: "none" },
  );
}
