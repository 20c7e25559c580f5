// The console overview (/admin, see docs/console.md).

import { siteHref } from "../../lib/links.ts";
import type { OverviewFacts } from "../../lib/admin/status.ts";
import { ADMIN_AREAS, type AdminAreaKey } from "./shell.view.tsx";
import { Tile } from "./widgets.view.tsx";
import { ActionCenterPanel } from "./action-center.view.tsx";

const SOURCE_LABEL: Record<NonNullable<OverviewFacts["source"]>, string> = {
  store: "Store",
  backup: "Newest backup (fallback)",
  local: "Local CSV fallback",
  test: "Test dataset",
};

/** The sections of each area, shown on its overview card. */
const AREA_SECTIONS: Record<Exclude<AdminAreaKey, "overview">, string[]> = {
  operations: ["Runtime Data Status", "Live Snapshot", "Event Store Controls", "Admin Sessions", "Recovery"],
  content: ["Event Sheet Editor", "Event Submissions", "Sliding Banner"],
  placements: ["Paid Orders Queue", "Spotlight & Promoted Scheduler"],
  insights: ["Engagement Stats", "Top Searches and Filters", "Event Performance", "Audience Export", "Collected Users"],
};

/** The overview: five tiles, the Action Center (refreshed every 10 s) and one card per area with its sections and an "Open" link. */
export function Overview(props: { facts: OverviewFacts }): JSX.Element {
  const f = props.facts;
  return (
    <>
      <section class="tiles" aria-label="Runtime summary">
        <Tile label="Runtime Source" value={f.source ? SOURCE_LABEL[f.source] : undefined} note={f.fallbackReason} />
        <Tile label="Live Events" value={f.liveEvents} />
        <Tile label="Store Rows" value={f.storeRows} />
        <Tile label="Pending Submissions" value={f.pendingSubmissions} />
        <Tile label="Pending Orders" value={f.pendingOrders} />
      </section>
      <ActionCenterPanel counts={f.actions} />
      <section class="area-cards" aria-label="Console areas">
        {ADMIN_AREAS.filter((a) => a.key !== "overview").map((area) => (
          <article class="card area-card">
            <h2 safe>{area.label}</h2>
            <p safe>{area.description}</p>
            <ul>
              {AREA_SECTIONS[area.key as Exclude<AdminAreaKey, "overview">].map((s) => (
                <li safe>{s}</li>
              ))}
            </ul>
            <a class="button" href={siteHref(area.path)}>
              Open
            </a>
          </article>
        ))}
      </section>
    </>
  );
}
