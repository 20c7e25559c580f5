// Tracking endpoints (see docs/tracking.md): engagement, discovery and genre
// preferences. Every answer is 202 {success:true} with the no-store headers, whatever the body
// (malformed, wrong types, unknown event, rate limited): the body is read and checked inside
// the handler, never by an Elysia schema, which would answer 400/422.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { NO_STORE_HEADERS, readJson } from "../lib/http/responses.ts";
import { clientIp, type PeerSource } from "../lib/client-ip.ts";
import { type TrackContext, type TrackOutcome } from "../lib/tracking/service.ts";

const ACCEPTED_BODY = JSON.stringify({ success: true });
const ACCEPTED_HEADERS = { "content-type": "application/json; charset=utf-8", ...NO_STORE_HEADERS };

/** POST /api/track, POST /api/track/discovery, POST /api/user/preference */
export function trackingApi(deps: Deps) {
  const tracking = deps.tracking;
  const accept = (run: (body: unknown, context: TrackContext) => Promise<TrackOutcome>) =>
    async ({ request, server }: { request: Request; server: PeerSource | null }) => {
      try {
        await run(await readJson(request), { ip: clientIp(deps.config, request, server), request });
      } catch (error) {
        // Still 202: a visitor's beacon never fails.
        deps.log.error("tracking", "Tracking request failed", { path: new URL(request.url).pathname }, error);
      }
      return new Response(ACCEPTED_BODY, { status: 202, headers: ACCEPTED_HEADERS });
    };
  return new Elysia({ name: "tracking-api" })
    .post("/api/track", accept(tracking.trackEngagement), {
      parse: "none",
      detail: { tags: ["site"], summary: "Record an event interaction", description: "A JSON beacon of the site (open, outbound link, calendar download); always 202 `{success: true}`, even when the body is refused or rate limited. See docs/tracking.md." },
    })
    .post("/api/track/discovery", accept(tracking.trackDiscovery), {
      parse: "none",
      detail: { tags: ["site"], summary: "Record a search or a filter change", description: "A JSON beacon of the homepage; always 202 `{success: true}`." },
    })
    .post("/api/user/preference", accept(tracking.recordPreference), {
      parse: "none",
      detail: { tags: ["site"], summary: "Remember a signed-in visitor's genre choice", description: "A JSON beacon; always 202 `{success: true}` (nothing is kept without a session)." },
    });
}
