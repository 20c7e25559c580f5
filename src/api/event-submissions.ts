// POST /api/event-submissions (see docs/public-pages.md, "/submit-event"): a cross-site browser
// request is 403, JSON only (415 otherwise), at most 64 KiB (413), then the checks of submitEvent. Every answer carries the no-store headers.

import { currentLanguage } from "../lib/i18n/index.ts";
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, rateLimitedJson, readJson, refusalAnswer, refusalJson, requestRefusalJson, withBodyCap } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { isCrossSiteRequest } from "../lib/http/origin.ts";
import { clientIp } from "../lib/client-ip.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES } from "../lib/http/idempotency.ts";
import { requestDeadline } from "../lib/db/write-deadline.ts";
import { IDEMPOTENCY_PARAMETER } from "./openapi.ts";
import { isJsonContentType, MAX_SUBMISSION_BODY_BYTES, submitEvent, SUBMISSION_MESSAGES, type SubmitOutcome } from "../lib/submissions/submit.ts";

/** The JSON answer for an outcome. */
export function submissionJson(outcome: SubmitOutcome): Response {
  switch (outcome.kind) {
    case "received":
      // Spam is declined silently: the answer is the same as for a genuine submission.
      return jsonNoStore({ success: true, message: SUBMISSION_MESSAGES.thanks });
    case "closed":
      return refusalAnswer(503, SUBMISSION_MESSAGES.closed);
    case "unavailable":
      return refusalAnswer(503, SUBMISSION_MESSAGES.unavailable);
    case "limited":
      return rateLimitedJson(SUBMISSION_MESSAGES.tooMany, outcome.retryAfter);
    case "invalid_payload":
      return refusalJson(refused("invalid", SUBMISSION_MESSAGES.invalidPayload));
    case "invalid":
      return refusalJson(refused("invalid", SUBMISSION_MESSAGES.invalid, { issues: outcome.issues }));
    case "invalid_key":
      return refusalJson(refused("invalid", IDEMPOTENCY_MESSAGES.invalid));
    case "key_reused":
      return refusalJson(refused("conflict", IDEMPOTENCY_MESSAGES.reused));
  }
}

/** POST /api/event-submissions */
export function eventSubmissionsApi(deps: Deps) {
  return new Elysia({ name: "event-submissions-api" }).post(
    "/api/event-submissions",
    async ({ request, server }) => {
      if (isCrossSiteRequest(deps.config, request)) return requestRefusalJson("cross_site", SUBMISSION_MESSAGES.crossSite);
      if (!isJsonContentType(request.headers.get("content-type"))) return requestRefusalJson("unsupported_media", SUBMISSION_MESSAGES.unsupportedMediaType);
      const capped = await withBodyCap(request, MAX_SUBMISSION_BODY_BYTES);
      if (capped === "too_large") return requestRefusalJson("too_large", SUBMISSION_MESSAGES.tooLarge);
      const arrival = { idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER), deadline: requestDeadline(request) };
      return submissionJson(await submitEvent(deps, await readJson(capped), clientIp(deps.config, request, server), currentLanguage(), arrival));
    },
    // The body is read by the handler: the switch and the per-IP limit answer before "invalid payload".
    {
      parse: "none",
      detail: {
        tags: ["site"],
        summary: "Submit an event for review",
        description:
          "JSON body of the /submit-event form (at most 64 KiB). `{success, message}`; 400 with `issues` naming each field, 403 cross-site, 413, 415, 429 with Retry-After, 503 while submissions are closed or when nothing was stored. An optional `Idempotency-Key` header makes a retry the same submission: the same key and body answer the first answer again without storing anything; the same key with another body is 409; a malformed key 400.",
        parameters: [IDEMPOTENCY_PARAMETER],
      },
    },
  );
}
