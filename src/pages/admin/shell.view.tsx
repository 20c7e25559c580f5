// The admin console shell (see docs/console.md): layout with the console stylesheet, header "Admin
// Console" with the area description, "Back to Home", the Action Center badge (action-center.view.tsx,
// refreshed every 10 s) and the five area tabs.

import { siteHref } from "../../lib/links.ts";
import { assetUrl } from "../../lib/serving/static-assets.ts";
import type { Children } from "@kitajs/html";
import { Layout } from "../components/layout.tsx";
import type { ActionCounts } from "../../lib/admin/status.ts";
import { ActionCenterBadge } from "./action-center.view.tsx";

/** The root id of the console fragment (header, tabs, area content) swapped by tab navigation. */
export const ADMIN_CONSOLE_ID = "admin-console";

/** The five console areas (overview, operations, content, placements, insights), in tab order. */
export const ADMIN_AREAS = [
  { key: "overview", path: "/admin", label: "Overview", description: "Runtime status at a glance and a door into every area." },
  { key: "operations", path: "/admin/operations", label: "Operations", description: "Runtime status, store controls, backups, sessions and recovery." },
  { key: "content", path: "/admin/content", label: "Content", description: "Event sheet editor, submission moderation, banner settings and submissions on/off." },
  { key: "placements", path: "/admin/placements", label: "Placements", description: "Paid orders queue and the spotlight and promoted scheduler." },
  { key: "insights", path: "/admin/insights", label: "Insights", description: "Engagement analytics and the audience CSV export." },
] as const;

export type AdminAreaKey = (typeof ADMIN_AREAS)[number]["key"];

/** A console path a login may return to; anything else becomes /admin. */
export function safeAdminPath(raw: unknown): string {
  return ADMIN_AREAS.some((a) => a.path === raw) ? (raw as string) : "/admin";
}

// htmx leaves 4xx and 5xx answers unswapped by default, which would make a refused action look
// like nothing happened. The console's actions answer their card (or an error fragment) with the
// inline error for every failure, so every answer is swapped and a failure is never a blank swap.
const HTMX_CONFIG = {
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "4..", swap: true, error: false },
    { code: "5..", swap: true, error: true },
    { code: "...", swap: false },
  ],
};

/** A full admin document: the shared layout with the console stylesheet, never indexed. */
export function AdminLayout(props: { title: string; children?: Children }): JSX.Element {
  const head = (
    <>
      <link rel="stylesheet" href={assetUrl("admin.css")} />
    </>
  ) as string;
  return (
    <Layout title={`${props.title} | finder admin`} bodyClass="admin" noindex head={head} htmxConfig={HTMX_CONFIG} scripts={["admin.js"]}>
      {props.children}
    </Layout>
  );
}

function Count(props: { value?: number }): JSX.Element {
  if (props.value === undefined || props.value === 0) return "";
  return <span class="tab-count" safe>{String(props.value)}</span>;
}

/** The console: header, tabs and the area content; the fragment htmx tab navigation swaps. */
export function AdminConsole(props: { area: AdminAreaKey; pending?: ActionCounts; children?: Children }): JSX.Element {
  const current = ADMIN_AREAS.find((a) => a.key === props.area)!;
  const pending = props.pending;
  return (
    <div id={ADMIN_CONSOLE_ID} class="admin-console">
      <header class="admin-header">
        <div class="admin-title">
          <h1>Admin Console</h1>
          <p class="admin-description" safe>
            {current.description}
          </p>
        </div>
        <div class="admin-header-actions">
          <ActionCenterBadge counts={pending} />
          <a class="button button-quiet" href="/">
            Back to Home
          </a>
        </div>
      </header>
      <nav class="admin-tabs" aria-label="Console areas">
        {ADMIN_AREAS.map((area) => (
          <a
            href={siteHref(area.path)}
            class={area.key === props.area ? "tab tab-current" : "tab"}
            aria-current={area.key === props.area ? "page" : undefined}
            hx-get={siteHref(area.path)}
            hx-target={`#${ADMIN_CONSOLE_ID}`}
            hx-swap="outerHTML"
            hx-push-url="true"
          >
            <span safe>{area.label}</span>
            {area.key === "content" ? <Count value={pending?.submissions} /> : ""}
            {area.key === "placements" ? <Count value={pending?.orders} /> : ""}
          </a>
        ))}
      </nav>
      <main id="main" class="admin-main">
        {props.children}
      </main>
    </div>
  );
}

/** A whole console page. */
export function AdminPage(props: { area: AdminAreaKey; title: string; pending?: ActionCounts; children?: Children }): JSX.Element {
  return (
    <AdminLayout title={props.title}>
      <AdminConsole area={props.area} pending={props.pending}>
        {props.children}
      </AdminConsole>
    </AdminLayout>
  );
}
