// Fragment routes of the operations cards other than Admin Sessions (see
// docs/console-operations.md): status and revalidation, live snapshot and dry-run check, store
// upload/export/import, backups and restore, recovery, and the progress of background jobs. Every
// answer for htmx is the region it replaces, with an inline error on failure; a request without
// htmx goes back to the page after the action.

import { Elysia } from "elysia";
import type { Children } from "@kitajs/html";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS, privateFragment } from "../../../lib/http/responses.ts";
import { hxRedirect, isHtmx } from "../../../lib/http/htmx.ts";
import { readForm } from "../../../lib/http/forms.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { findStoreMeta } from "../../../lib/store/store.ts";
import { createBackup, listBackups } from "../../../lib/store/backups.ts";
import { exportStoreCsv, storeExportFileName } from "../../../lib/store/csv-transfer.ts";
import {
  CLEAR_STORE_CONFIRMATION,
  clearStoreWithSnapshot,
  importSpreadsheetJob,
  loadLocalCsv,
  metaJson,
  OPERATION_MESSAGES,
  rebuildCoordinates,
  resetCoordinateCache,
  restoreAndRevalidate,
  revalidateNow,
  uploadCsv,
} from "../../../lib/admin/store-operations.ts";
import { previewSpreadsheet } from "../../../lib/spreadsheet-import/import.ts";
import type { JobView } from "../../../lib/admin/jobs.ts";
import { adminPageGuard } from "../guard.ts";
import { JobProgress } from "../widgets.view.tsx";
import { SnapshotCard, StatusCard, type SnapshotCardProps, type StatusCardProps } from "./status.view.tsx";
import { ActivityCard, BackupsRegion, ImportRegion, RecoveryCard, RecoveryResult, StoreCard, StoreTiles, UploadResult, type StoreFacts } from "./store.view.tsx";

const PAGE = "/admin/operations";
const REFRESH = { "hx-trigger": "ops-refresh" };

type OpsDeps = Deps;

const fragment = privateFragment;

async function statusProps(deps: OpsDeps): Promise<StatusCardProps> {
  const meta = await findStoreMeta(deps.db).catch(() => undefined);
  return { dataMode: deps.config.dataMode, runtime: deps.events.status(), storeRows: meta?.rowCount ?? 0 };
}

async function snapshotProps(deps: OpsDeps, check: boolean): Promise<SnapshotCardProps> {
  const props: SnapshotCardProps = { events: [] };
  try {
    const read = await deps.events.load();
    props.events = read.events.slice(0, 5);
    props.source = read.source;
  } catch (error) {
    props.error = `The live read failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (check) {
    try {
      props.check = await deps.events.dryRun();
    } catch (error) {
      props.check = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  return props;
}

async function storeFacts(deps: OpsDeps): Promise<StoreFacts> {
  const meta = metaJson(await findStoreMeta(deps.db));
  return { rowCount: meta.rowCount, updatedAt: meta.updatedAt, updatedBy: meta.updatedBy, origin: meta.origin, revision: meta.revision };
}

/** Everything the operations page shows besides the sessions card. */
export interface OperationsCardsData {
  status: StatusCardProps;
  snapshot: SnapshotCardProps;
  facts: StoreFacts;
  backups: Awaited<ReturnType<typeof listBackups>>;
  jobs: JobView[];
}

/** Loads the cards; `jobId` shows that job in the Activity card (the no-JavaScript path). */
export async function loadOperationsCards(deps: OpsDeps, jobId?: string): Promise<OperationsCardsData> {
  const [status, snapshot, facts, backups] = await Promise.all([statusProps(deps), snapshotProps(deps, false), storeFacts(deps), listBackups(deps.db)]);
  const job = jobId ? deps.jobs.get(jobId) : undefined;
  return { status, snapshot, facts, backups, jobs: job ? [job] : [] };
}

/** The page body: Activity, status, snapshot, store controls, sessions, recovery. */
export function OperationsCards(props: OperationsCardsData & { sessions: Children; pins?: Children }): JSX.Element {
  return (
    <div class="stack">
      <ActivityCard jobs={props.jobs} />
      <StatusCard {...props.status} />
      <SnapshotCard {...props.snapshot} />
      <StoreCard facts={props.facts} backups={props.backups} />
      {props.sessions}
      {props.pins}
      <RecoveryCard />
    </div>
  );
}

/** The routes of the operations cards' actions. */
export function storeActionRoutes(deps: OpsDeps) {
  // A started job: its progress bar for htmx, the page showing it otherwise.
  const started = (request: Request, job: JobView) => (isHtmx(request) ? fragment(<JobProgress job={job} />, 202) : hxRedirect(request, `${PAGE}?job=${job.id}#ops-activity`, NO_STORE_HEADERS));
  const back = (request: Request) => hxRedirect(request, PAGE, NO_STORE_HEADERS);

  return new Elysia({ name: "admin-operations-store-pages" })
    .use(adminPageGuard(deps))
    .get(`${PAGE}/status`, async ({ request }) => (isHtmx(request) ? fragment(<StatusCard {...await statusProps(deps)} />) : back(request)), { isAdmin: true })
    .post(
      `${PAGE}/revalidate`,
      async ({ request }) => {
        let notice;
        let status = 200;
        try {
          notice = { kind: "ok" as const, text: (await revalidateNow(deps)).message };
        } catch (error) {
          deps.log.warn("admin-operations", "Revalidation failed", undefined, error);
          notice = { kind: "error" as const, text: "Revalidation failed: every event source failed. The previous pages stay in place." };
          status = 503;
        }
        if (!isHtmx(request)) return back(request);
        return fragment(<StatusCard {...await statusProps(deps)} notice={notice} />, status);
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      `${PAGE}/snapshot`,
      async ({ request, query }) => {
        if (!isHtmx(request) && query.check !== "1") return back(request);
        const props = await snapshotProps(deps, query.check === "1");
        if (!isHtmx(request)) return back(request);
        return fragment(<SnapshotCard {...props} />);
      },
      { isAdmin: true },
    )
    .get(`${PAGE}/store/tiles`, async ({ request }) => {
      if (!isHtmx(request)) return back(request);
      const [facts, backups] = await Promise.all([storeFacts(deps), listBackups(deps.db, 1)]);
      return fragment(<StoreTiles facts={facts} newestBackup={backups[0]} />);
    }, { isAdmin: true })
    .post(
      `${PAGE}/store/upload`,
      async ({ request, admin }) => {
        let data: FormData | undefined;
        try {
          data = await request.formData();
        } catch {
          data = undefined;
        }
        const file = data?.get("file");
        const mode = data?.get("mode") === "write" ? "write" : "check";
        if (!file || typeof file === "string" || file.size === 0 && file.name === "") {
          return fragment(<UploadResult notice={{ kind: "error", text: "Choose a CSV file first." }} />, 400);
        }
        const text = await file.text();
        const outcome = await uploadCsv(deps, text, { dryRun: mode === "check", actor: actorOf(admin), bytes: file.size });
        if (!isHtmx(request)) return back(request);
        if (!outcome.ok) return fragment(<UploadResult report={outcome.report} notice={{ kind: "error", text: outcome.error }} />, 400);
        if (outcome.dryRun) return fragment(<UploadResult report={outcome.report} notice={{ kind: "ok", text: outcome.message }} canWrite />);
        return fragment(<UploadResult report={outcome.report} notice={{ kind: "ok", text: outcome.message }} />, 200, REFRESH);
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      `${PAGE}/store/export`,
      async () => {
        const csv = await exportStoreCsv(deps.db);
        return new Response(csv ?? "", {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${storeExportFileName(deps.now())}"`, ...NO_STORE_HEADERS },
        });
      },
      { isAdmin: true },
    )
    .post(
      `${PAGE}/store/import/preview`,
      async ({ request }) => {
        const preview = await previewSpreadsheet(deps);
        if (!isHtmx(request)) return back(request);
        return fragment(<ImportRegion preview={preview} />, preview.ok ? 200 : 502);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/store/import`,
      ({ request, admin }) => started(request, deps.jobs.start("Import spreadsheet", (report) => importSpreadsheetJob(deps, actorOf(admin), report))),
      { isAdmin: true, parse: "none" },
    )
    .get(`${PAGE}/store/backups`, async ({ request }) => (isHtmx(request) ? fragment(<BackupsRegion backups={await listBackups(deps.db)} />) : back(request)), { isAdmin: true })
    .post(
      `${PAGE}/store/backups`,
      async ({ request }) => {
        const created = await createBackup(deps.db, { createdBy: "admin-panel", trigger: "manual", now: deps.now() });
        if (!isHtmx(request)) return back(request);
        return fragment(<BackupsRegion backups={await listBackups(deps.db)} notice={{ kind: "ok", text: created.message }} />, 200, created.skipped ? {} : REFRESH);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/store/restore`,
      async ({ request }) => {
        const form = await readForm(request);
        const id = form.id?.trim() || undefined;
        return started(request, deps.jobs.start(id ? "Restore selected snapshot" : "Restore latest backup", (report) => restoreAndRevalidate(deps, id, report)));
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/recovery/rebuild-coordinates`,
      ({ request }) => started(request, deps.jobs.start("Rebuild coordinates", (report) => rebuildCoordinates(deps, report))),
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/recovery/load-local-csv`,
      ({ request, admin }) => started(request, deps.jobs.start("Load sample sheet", (report) => loadLocalCsv(deps, actorOf(admin), report))),
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/recovery/reset-coordinates`,
      async ({ request }) => {
        const { message } = await resetCoordinateCache(deps);
        return isHtmx(request) ? fragment(<RecoveryResult notice={{ kind: "ok", text: message }} />) : back(request);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/recovery/clear-store`,
      async ({ request }) => {
        const form = await readForm(request);
        if (form.confirm?.trim() !== CLEAR_STORE_CONFIRMATION) {
          return fragment(<RecoveryResult notice={{ kind: "error", text: `${OPERATION_MESSAGES.clearConfirm}; nothing was changed.` }} />, 400);
        }
        const outcome = await clearStoreWithSnapshot(deps);
        return isHtmx(request) ? fragment(<RecoveryResult notice={{ kind: "ok", text: outcome.message }} />, 200, REFRESH) : back(request);
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      `${PAGE}/jobs/:id`,
      ({ request, params }) => {
        const job = deps.jobs.get(params.id);
        if (!isHtmx(request)) return hxRedirect(request, job ? `${PAGE}?job=${job.id}` : PAGE, NO_STORE_HEADERS);
        if (!job) return fragment(<p class="notice notice-error" role="alert">This job is no longer known (finished jobs are kept for an hour on the instance that ran them).</p>, 404);
        return fragment(<JobProgress job={job} />, 200, job.state === "running" ? {} : REFRESH);
      },
      { isAdmin: true },
    );
}
