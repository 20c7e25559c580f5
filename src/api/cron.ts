// Scheduled-task endpoints, one per task of the schedule (Bearer CRON_SECRET, same run-once lock) and the post-deploy revalidation trigger
// (Bearer or x-revalidate-secret DEPLOY_REVALIDATE_SECRET); they call the same task functions as the schedule.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalAnswer, refusalJson, requestRefusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { secretsEqual } from "../lib/crypto.ts";
import { bearerToken } from "../lib/auth/admin-credentials.ts";
import { revalidateHomepage } from "../lib/events/publish.ts";
import { EventsUnavailableError } from "../lib/events/pipeline.ts";
import { safeErrorText } from "../lib/db/errors.ts";
import { runScheduledTask, scheduledTask } from "../tasks/schedule.ts";

/** What a failed run answers: a database error as its code and table only, never its SQL or parameters. */
const errorText = safeErrorText;

/** GET /api/cron/* and GET|POST /api/revalidate/deploy */
export function cronApi(deps: Deps) {
  const cronAuthorized = (request: Request) => secretsEqual(bearerToken(request.headers.get("authorization"))?.trim(), deps.config.cronSecret);
  const cronTask = async ({ request, params }: { request: Request; params: { task: string } }) => {
    if (!cronAuthorized(request)) return jsonNoStore({ error: "Unauthorized" }, 401);
    const task = scheduledTask(params.task);
    if (!task) return jsonNoStore({ ok: false, error: "Unknown task" }, 404);
    try {
      const outcome = await runScheduledTask(deps, task);
      if (!outcome.ran) return jsonNoStore({ ok: true, skipped: true, message: "Already running; this call did not start a second run" });
      return jsonNoStore({ ok: true, ...(task.report ? task.report(outcome.result) : (outcome.result as Record<string, unknown>)) });
    } catch (error) {
      deps.log.error("tasks", "Cron endpoint failed", { task: task.name }, error);
      return jsonNoStore({ ok: false, error: errorText(error) }, 500);
    }
  };

  const deploy = async ({ request }: { request: Request }) => {
    const secret = deps.config.deployRevalidateSecret;
    if (!secret) {
      deps.log.warn("deploy", "DEPLOY_REVALIDATE_SECRET is not configured; deploy revalidation refused");
      return refusalAnswer(503, "DEPLOY_REVALIDATE_SECRET is not configured");
    }
    const provided = bearerToken(request.headers.get("authorization")) ?? request.headers.get("x-revalidate-secret") ?? undefined;
    if (!secretsEqual(provided?.trim(), secret)) return requestRefusalJson("unauthorized", "Unauthorized");
    try {
      const result = await revalidateHomepage(deps, ["/feature-event"]);
      const source = result.source === "backup" ? "store" : result.source;
      return jsonNoStore({ success: true, message: `Loaded ${result.count} events from ${source} and revalidated homepage`, count: result.count, source });
    } catch (error) {
      if (error instanceof EventsUnavailableError) return refusalJson(refused("failed", errorText(error), { message: "Homepage revalidation failed" }));
      deps.log.error("deploy", "Deploy revalidation failed", undefined, error);
      return refusalJson(refused("failed", errorText(error)));
    }
  };

  return new Elysia({ name: "cron-api" })
    .get("/api/cron/:task", cronTask)
    .get("/api/revalidate/deploy", deploy)
    .post("/api/revalidate/deploy", deploy);
}
