// POST /api/events/:key/reports (see docs/public-pages.md, "Report a problem"): a cross-site
// browser request is 403, JSON only (415 otherwise), at most 8 KiB (413), then the checks of
// submitReport. Every answer carries the no-store headers.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, rateLimitedJson, readJson, refusalAnswer, refusalJson, requestRefusalJson, withBodyCap } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { isCrossSiteRequest } from "../lib/http/origin.ts";
import { clientIp } from "../lib/client-ip.ts";
import { isJsonContentType } from "../lib/submissions/submit.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES } from "../lib/http/idempotency.ts";
import { requestDeadline } from "../lib/db/write-deadline.ts";
import { MAX_REPORT_BODY_BYTES, REPORT_MESSAGES, submitReport, type ReportOutcome } from "../lib/reports/report.ts";

/** The JSON answer for an outcome. */
export function reportJson(outcome: ReportOutcome): Response {
  switch (outcome.kind) {
    case "received":
      // A spam-flagged report gets the same answer as a genuine one.
      return jsonNoStore({ success: true, message: REPORT_MESSAGES.thanks }, 201);
    case "not_found":
      return refusalJson(refused("not_found", REPORT_MESSAGES.notFound));
    case "limited":
      return rateLimitedJson(REPORT_MESSAGES.tooMany, outcome.retryAfter);
    case "invalid":
      return refusalJson(refused("invalid", REPORT_MESSAGES.invalid, { issues: outcome.issues }));
    case "unavailable":
      return refusalAnswer(503, REPORT_MESSAGES.unavailable);
    case "invalid_key":
      return refusalJson(refused("invalid", IDEMPOTENCY_MESSAGES.invalid));
    case "key_reused":
      return refusalJson(refused("conflict", IDEMPOTENCY_MESSAGES.reused));
  }
}

/** POST /api/events/:key/reports */
export function eventReportsApi(deps: Deps) {
  return new Elysia({ name: "event-reports-api" }).post(
    "/api/events/:key/reports",
    async ({ request, server, params }) => {
      if (isCrossSiteRequest(deps.config, request)) return requestRefusalJson("cross_site", REPORT_MESSAGES.crossSite);
      if (!isJsonContentType(request.headers.get("content-type"))) return requestRefusalJson("unsupported_media", "Unsupported media type");
      const capped = await withBodyCap(request, MAX_REPORT_BODY_BYTES);
      if (capped === "too_large") return requestRefusalJson("too_large", REPORT_MESSAGES.tooLarge);
      const arrival = { idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER), deadline: requestDeadline(request) };
      return reportJson(await submitReport(deps, params.key, await readJson(capped), clientIp(deps.config, request, server), arrival));
    },
    {
      parse: "none",
      detail: {
        tags: ["site"],
        summary: "Report a problem with a published event",
        description:
          "JSON body `{kind, text?}`: kind is cancelled, wrong_place, wrong_time or other; text at most 500 characters. 201 `{success, message}`; 400 with `issues`, 403 cross-site, 404 when no published event has the key, 413, 415, 429 with Retry-After, 503 when nothing was stored. An optional `Idempotency-Key` header (as for submissions) makes a retry the same report: the same key, event and body answer 201 again without storing anything; another body under the key is 409, a malformed key 400.",
      },
    },
  );
}
