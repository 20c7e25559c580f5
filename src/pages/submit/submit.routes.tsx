// /submit-event: the host submission page. GET is static-first (cached 300 s; the form carries
// no per-visitor state and the switch invalidates it). POST takes the form, with htmx (answers
// the form fragment) or without JavaScript (answers the whole page), through submitEvent.

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
import { readSubmissionSettings } from "../../lib/submissions/settings.ts";
import { MAX_SUBMISSION_BODY_BYTES, submitEvent, type SubmitOutcome } from "../../lib/submissions/submit.ts";
import { currentLanguage, languageCacheKey } from "../../lib/i18n/index.ts";
import { alternateLinks } from "../components/layout.tsx";
import { publicUrl } from "../../lib/config.ts";
import { emptyFormState, SubmissionForm, SubmitPage, SUBMIT_PAGE_TEXT, type SubmissionFormState } from "./submit.view.tsx";

/** /submit-event is static-first: cached 300 s (see docs/public-pages.md, "Caching rules"). */
export const SUBMIT_PAGE_REVALIDATE_SECONDS = 300;

/** The form state and status code after a submission. */
export function formOutcome(outcome: SubmitOutcome, values: SubmissionFormState["values"]): { state: SubmissionFormState; status: number; headers: Record<string, string> } {
  const retry = (state: Omit<SubmissionFormState, "values">, status: number, headers: Record<string, string> = {}) => ({ state: { ...state, values }, status, headers });
  switch (outcome.kind) {
    case "received":
      // A fresh form: the script stamps a new formStartedAt when it appears.
      return { state: { enabled: true, values: {}, issues: [], notice: { kind: "success", text: SUBMIT_PAGE_TEXT.thanks(), next: true } }, status: 200, headers: {} };
    case "invalid":
      return retry({ enabled: true, issues: outcome.issues, notice: { kind: "error", text: SUBMIT_PAGE_TEXT.invalid() } }, 422);
    case "invalid_payload":
    case "invalid_key":
      return retry({ enabled: true, issues: [], notice: { kind: "error", text: SUBMIT_PAGE_TEXT.invalidPayload() } }, 400);
    case "key_reused":
      return retry({ enabled: true, issues: [], notice: { kind: "error", text: SUBMIT_PAGE_TEXT.keyReused() } }, 422);
    case "limited":
      // The same event again: the host is told it arrived, not asked to wait a day.
      if (outcome.duplicate) return retry({ enabled: true, issues: [], notice: { kind: "success", text: SUBMIT_PAGE_TEXT.duplicate() } }, 429, { "retry-after": String(outcome.retryAfter) });
      return retry({ enabled: true, issues: [], notice: { kind: "error", text: SUBMIT_PAGE_TEXT.tooMany(outcome.retryAfter) } }, 429, { "retry-after": String(outcome.retryAfter) });
    case "closed":
      return retry({ enabled: false, issues: [], notice: { kind: "error", text: SUBMIT_PAGE_TEXT.closed() } }, 503);
    case "unavailable":
      return retry({ enabled: true, issues: [], notice: { kind: "error", text: SUBMIT_PAGE_TEXT.unavailable() } }, 503);
  }
}

/**
 * Echoes what the host typed, as text, for the re-rendered form, with the form's idempotency key
 * (a fresh one when it came without, as a form sent without JavaScript does): sending the re-shown
 * form again is the same submission.
 */
function echoValues(fields: Record<string, unknown> | undefined): SubmissionFormState["values"] {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields ?? {})) if (typeof value === "string" && name !== "website" && name !== "honeypot") values[name] = value.slice(0, 4000);
  if (!values[IDEMPOTENCY_FIELD]) values[IDEMPOTENCY_FIELD] = randomUUID();
  return values;
}

/** The form alone for htmx, the whole page otherwise; never stored. */
function formAnswer(request: Request, state: SubmissionFormState, status: number, headers: Record<string, string> = {}): Response {
  return pageOrFragment(request, { page: () => markup(<SubmitPage state={state} />), fragment: () => markup(<SubmissionForm state={state} />) }, { status, headers: { ...NO_STORE_HEADERS, ...headers } });
}

/** GET and POST /submit-event */
export function submitRoutes(deps: Deps) {
  return new Elysia({ name: "submit-event" })
    .get("/submit-event", ({ request }) => {
      const language = currentLanguage();
      return deps.renderCache.serve(request, languageCacheKey("/submit-event", language), { revalidate: SUBMIT_PAGE_REVALIDATE_SECONDS }, async () => {
        let enabled = true;
        try {
          enabled = (await readSubmissionSettings(deps.kv)).enabled;
        } catch (error) {
          // Shown open; a submission then answers "unavailable" while the store is down.
          deps.log.warn("submissions", "Submission settings unreadable while rendering /submit-event", undefined, error);
        }
        return { body: markup(<SubmitPage state={emptyFormState(enabled)} alternates={alternateLinks(publicUrl(deps.config, "/submit-event"))} />) };
      });
    })
    .post(
      "/submit-event",
      async ({ request, server }) => {
        const refuse = (text: string, status: number) => formAnswer(request, { enabled: true, values: {}, issues: [], notice: { kind: "error", text } }, status);
        if (isCrossSiteRequest(deps.config, request)) return refuse(SUBMIT_PAGE_TEXT.crossSite(), 403);
        const capped = await withBodyCap(request, MAX_SUBMISSION_BODY_BYTES);
        if (capped === "too_large") return refuse(SUBMIT_PAGE_TEXT.tooLarge(), 413);
        const fields = await readJsonOrForm(capped);
        const outcome = await submitEvent(deps, honeypotBody(fields), clientIp(deps.config, request, server), currentLanguage(), { deadline: requestDeadline(request) });
        const { state, status, headers } = formOutcome(outcome, echoValues(fields));
        return formAnswer(request, state, status, headers);
      },
      { parse: "none" },
    );
}
