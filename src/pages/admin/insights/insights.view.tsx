// /admin/insights (see docs/insights.md, "The page"): window and cluster controls, then blocks
// that each load as their own htmx fragment (stats tiles and daily chart, top searches / filters /
// genres, event performance, collected users), the audience export form and the erasure form.
// Without JavaScript each block placeholder links to the block's own page.

import { siteHref } from "../../../lib/links.ts";
import Html from "@kitajs/html";
import type { InsightsQuery } from "../../../lib/insights/request.ts";
import type { DailyInsights, DiscoveryInsights, EventInsights, InsightsSummary } from "../../../lib/insights/metrics.ts";
import type { CollectedUser, UsersSummary } from "../../../lib/insights/exports.ts";
import type { ErasureCounts } from "../../../lib/insights/erasure.ts";
import { EVENT_SORT_KEYS, EVENT_TABLE_ROWS, type EventSortKey, type EventTableQuery } from "../../../lib/insights/event-table.ts";
import { GENRES } from "../../../lib/sheet/genres.ts";
import { trackedFilterLabel } from "../../../lib/events/filter-labels.ts";
import { DailyChart, type ChartSeries } from "../../components/daily-chart.view.tsx";
import type { ReportInsights } from "../../../lib/insights/reports.ts";
import type { EditionComparison, RankedDifference } from "../../../lib/insights/comparison.ts";
import { EDITION_LEAD_DAYS } from "../../../lib/insights/editions.ts";

/** The daily chart's lines: views, deduped views dashed, outbound, calendar dotted. */
const DAILY_SERIES: readonly ChartSeries<"clickCount" | "dedupedViewCount" | "outboundClickCount" | "calendarSyncCount">[] = [
  { key: "clickCount", label: "Views", colour: "#2563eb" },
  { key: "dedupedViewCount", label: "Deduped views", colour: "#7c3aed", dash: "6 3" },
  { key: "outboundClickCount", label: "Outbound", colour: "#ea580c" },
  { key: "calendarSyncCount", label: "Calendar", colour: "#16a34a", dash: "2 3" },
];

export const INSIGHTS_STATS_ID = "insights-stats";
export const INSIGHTS_DISCOVERY_ID = "insights-discovery";
export const INSIGHTS_EVENTS_ID = "insights-events";
export const INSIGHTS_USERS_ID = "insights-users";
export const INSIGHTS_REPORTS_ID = "insights-reports";
export const INSIGHTS_ERASE_ID = "insights-erase";
export const INSIGHTS_COMPARISON_ID = "insights-comparison";

export const WINDOW_CHOICES = [7, 30, 90] as const;

const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();

/** What a block's heading says of its window: the edition with its lead-up, or the last N days. */
export function windowTitle(query: Pick<InsightsQuery, "windowDays" | "edition">): string {
  return query.edition !== undefined ? `Edition ${query.edition} (with its ${EDITION_LEAD_DAYS}-day lead-up)` : `Last ${query.windowDays} days`;
}
const fmt = (n: number) => n.toLocaleString("en-GB");
const pct = (n: number) => `${n.toLocaleString("en-GB", { maximumFractionDigits: 1 })}%`;

/** A block that loads itself as soon as the page is shown; a plain link without JavaScript. */
function LazyBlock(props: { id: string; title: string; url: string }): JSX.Element {
  return (
    <section id={props.id} class="card insights-block" aria-busy="true" hx-get={props.url} hx-trigger="load" hx-swap="outerHTML">
      <h2 safe>{props.title}</h2>
      <p class="muted">Loading…</p>
      <noscript>
        <a href={props.url}>Show {Html.escapeHtml(props.title)}</a>
      </noscript>
    </section>
  );
}

/** The page body: controls, the lazily loaded blocks, audience export and erasure. */
export function InsightsPage(props: { query: InsightsQuery; editions: readonly number[] }): JSX.Element {
  const { windowDays, cluster, edition } = props.query;
  const base = qs({ windowDays, cluster, edition });
  const windowOnly = qs({ windowDays, edition });
  const years = edition !== undefined && !props.editions.includes(edition) ? [edition, ...props.editions] : props.editions;
  return (
    <div class="insights">
      <form class="card insights-controls" method="get" action={siteHref("/admin/insights")} hx-get={siteHref("/admin/insights")} hx-trigger="change, submit" hx-target="#admin-console" hx-swap="outerHTML" hx-push-url="true">
        <h2 id="engagement-stats-title">Engagement Stats</h2>
        <fieldset class="segmented">
          <legend>Window</legend>
          {WINDOW_CHOICES.map((days) => (
            <label>
              <input type="radio" name="windowDays" value={String(days)} checked={days === windowDays} /> {Html.escapeHtml(`${days} days`)}
            </label>
          ))}
        </fieldset>
        <label>
          Edition{" "}
          <select name="edition">
            <option value="" selected={edition === undefined}>
              None (the window above)
            </option>
            {years.map((year) => (
              <option value={String(year)} selected={year === edition} safe>
                {String(year)}
              </option>
            ))}
          </select>
        </label>
        <fieldset class="segmented">
          <legend>Search clusters</legend>
          <label>
            <input type="radio" name="cluster" value="conservative" checked={cluster === "conservative"} /> Conservative
          </label>
          <label>
            <input type="radio" name="cluster" value="aggressive" checked={cluster === "aggressive"} /> Aggressive
          </label>
        </fieldset>
        <button type="submit" class="button">
          Refresh
        </button>
        {edition !== undefined ? (
          <p class="muted" safe>{`Showing edition ${edition}: its window and the ${EDITION_LEAD_DAYS} days before it.`}</p>
        ) : (WINDOW_CHOICES as readonly number[]).includes(windowDays) ? (
          ""
        ) : (
          <p class="muted" safe>{`Showing a ${windowDays}-day window.`}</p>
        )}
      </form>
      <LazyBlock id={INSIGHTS_COMPARISON_ID} title="Edition comparison" url={`/admin/insights/comparison?${qs({ edition })}`} />
      <LazyBlock id={INSIGHTS_STATS_ID} title="Engagement figures" url={`/admin/insights/stats?${base}`} />
      <LazyBlock id={INSIGHTS_DISCOVERY_ID} title="Searches, filters and genres" url={`/admin/insights/discovery?${base}`} />
      <LazyBlock id={INSIGHTS_EVENTS_ID} title="Event Performance" url={`/admin/insights/events?${windowOnly}`} />
      <LazyBlock id={INSIGHTS_REPORTS_ID} title="Reports from visitors" url={`/admin/insights/reports?${windowOnly}`} />
      <AudienceExport windowDays={windowDays} />
      <LazyBlock id={INSIGHTS_USERS_ID} title="Collected Users" url="/admin/insights/users" />
      <EraseCard />
    </div>
  );
}

function Tile(props: { label: string; value: string; hint?: string }): JSX.Element {
  return (
    <div class="tile" title={props.hint}>
      <span class="tile-label" safe>
        {props.label}
      </span>
      <strong class="tile-value" safe>
        {props.value}
      </strong>
    </div>
  );
}

/** The twelve tiles and the daily chart. */
export function StatsBlock(props: { title: string; summary: InsightsSummary; discovery: Pick<DiscoveryInsights, "searchCount" | "filterApplyCount" | "uniqueDiscoverySessionCount">; daily: DailyInsights[] }): JSX.Element {
  const s = props.summary;
  const d = props.discovery;
  return (
    <section id={INSIGHTS_STATS_ID} class="card insights-block" aria-labelledby="insights-stats-title">
      <h2 id="insights-stats-title" safe>
        {props.title}
      </h2>
      <div class="tiles insights-tiles">
        <Tile label="Views" value={fmt(s.clickCount)} hint="Event details opened" />
        <Tile label="Deduped Views" value={fmt(s.dedupedViewCount)} hint="Repeat views by the same session within 10 minutes counted once" />
        <Tile label="Outbound" value={fmt(s.outboundClickCount)} />
        <Tile label="Calendar" value={fmt(s.calendarSyncCount)} />
        <Tile label="Unique Sessions" value={fmt(s.uniqueSessionCount)} />
        <Tile label="Searches" value={fmt(d.searchCount)} />
        <Tile label="Filter Applies" value={fmt(d.filterApplyCount)} />
        <Tile label="Discovery Sessions" value={fmt(d.uniqueDiscoverySessionCount)} />
        <Tile label="Outbound CVR" value={pct(s.outboundSessionRate)} hint="Sessions with an outbound click, over sessions with a view" />
        <Tile label="Calendar CVR" value={pct(s.calendarSessionRate)} hint="Sessions with a calendar sync, over sessions with a view" />
        <Tile label="Outbound Interaction" value={pct(s.outboundInteractionRate)} hint="Outbound clicks over views" />
        <Tile label="Calendar Interaction" value={pct(s.calendarInteractionRate)} hint="Calendar syncs over views" />
      </div>
      <DailyChart title="Daily engagement (Paris days)" series={DAILY_SERIES} days={props.daily} />
    </section>
  );
}

/** Top Search Queries (clusters with their variants), Top Filters and Top Genres. */
export function DiscoveryBlock(props: { discovery: DiscoveryInsights; cluster: string }): JSX.Element {
  const d = props.discovery;
  return (
    <section id={INSIGHTS_DISCOVERY_ID} class="insights-discovery" aria-label="Searches, filters and genres">
      <article class="card">
        <h2>Top Search Queries</h2>
        <p class="muted" safe>{`Clustered (${props.cluster}) from the 250 most frequent queries.`}</p>
        {d.topSearches.length === 0 ? (
          <p class="empty">No searches in this window.</p>
        ) : (
          <ol class="ranked">
            {d.topSearches.map((c) => (
              <li>
                <details>
                  <summary>
                    <span class="ranked-label" safe>
                      {c.query}
                    </span>{" "}
                    <span class="badge" safe>{fmt(c.count)}</span> <span class="muted" safe>{c.variantCount === 1 ? "1 variant" : `${c.variantCount} variants`}</span>
                  </summary>
                  <ul class="variants">
                    {c.variants.map((v) => (
                      <li>
                        <span safe>{v.query}</span> <span class="muted" safe>{fmt(v.count)}</span>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ol>
        )}
      </article>
      <article class="card">
        <h2>Top Filters</h2>
        {d.topFilters.length === 0 ? (
          <p class="empty">No filters applied in this window.</p>
        ) : (
          <ol class="ranked">
            {d.topFilters.map((f) => (
              <li>
                {trackedFilterLabel(f.filterGroup, f.filterValue) !== null ? (
                  <span safe>{trackedFilterLabel(f.filterGroup, f.filterValue)}</span>
                ) : (
                  <>
                    <span class="muted" safe>{`${f.filterGroup}:`}</span> <span safe>{f.filterValue}</span>
                  </>
                )}{" "}
                <span class="badge" safe>{fmt(f.count)}</span>
              </li>
            ))}
          </ol>
        )}
      </article>
      <article class="card">
        <h2>Top Genres</h2>
        <p class="muted">Preferences of signed-in visitors, all time.</p>
        {d.topGenres.length === 0 ? (
          <p class="empty">No genre preferences yet.</p>
        ) : (
          <ol class="ranked">
            {d.topGenres.map((g) => (
              <li>
                <span safe>{g.label}</span> <span class="badge" safe>{fmt(g.totalScore)}</span> <span class="muted" safe>{g.uniqueUsers === 1 ? "1 user" : `${fmt(g.uniqueUsers)} users`}</span>
              </li>
            ))}
          </ol>
        )}
      </article>
    </section>
  );
}

const COLUMN_LABELS: Record<EventSortKey, string> = {
  eventName: "Event",
  clickCount: "Views",
  dedupedViewCount: "Deduped",
  outboundClickCount: "Outbound",
  calendarSyncCount: "Calendar",
  uniqueSessionCount: "Sessions",
  conversionRate: "Conversion",
};

/** The Event Performance table with its search, row count and sortable columns. */
export function EventsBlock(props: { windowDays: number; edition?: number; query: EventTableQuery; rows: EventInsights[]; matched: number; total: number }): JSX.Element {
  const q = props.query;
  const url = (over: Partial<EventTableQuery>) => {
    const n = { ...q, ...over };
    return `/admin/insights/events?${qs({ windowDays: props.windowDays, edition: props.edition, rows: n.rows, q: n.search, sort: n.sort, dir: n.dir })}`;
  };
  const target = `#${INSIGHTS_EVENTS_ID}`;
  return (
    <section id={INSIGHTS_EVENTS_ID} class="card insights-block" aria-labelledby="insights-events-title">
      <div class="card-head">
        <h2 id="insights-events-title">Event Performance</h2>
        <span class="badge" safe>{`${props.matched} of ${props.total} events`}</span>
      </div>
      <form class="events-controls" method="get" action={siteHref("/admin/insights/events")} hx-get={siteHref("/admin/insights/events")} hx-trigger="change, submit, keyup changed delay:300ms from:find input[type=search]" hx-target={target} hx-swap="outerHTML">
        <input type="hidden" name="windowDays" value={String(props.windowDays)} />
        {props.edition !== undefined ? <input type="hidden" name="edition" value={String(props.edition)} /> : ""}
        <input type="hidden" name="sort" value={q.sort} />
        <input type="hidden" name="dir" value={q.dir} />
        <label>
          Search <input type="search" name="q" value={q.search} maxlength="120" placeholder="Name or key" />
        </label>
        <label>
          Rows{" "}
          <select name="rows">
            {EVENT_TABLE_ROWS.map((n) => (
              <option value={String(n)} selected={n === q.rows} safe>
                {String(n)}
              </option>
            ))}
          </select>
        </label>
        <noscript>
          <button type="submit" class="button button-small">
            Apply
          </button>
        </noscript>
      </form>
      {props.rows.length === 0 ? (
        <p class="empty">{props.total === 0 ? "No event activity in this window." : "No event matches this search."}</p>
      ) : (
        <div class="table-scroll">
          <table class="events-table">
            <thead>
              <tr>
                {EVENT_SORT_KEYS.map((key) => {
                  const current = q.sort === key;
                  const nextDir = current && q.dir === "desc" ? "asc" : current ? "desc" : key === "eventName" ? "asc" : "desc";
                  return (
                    <th scope="col" aria-sort={current ? (q.dir === "asc" ? "ascending" : "descending") : undefined}>
                      <a href={url({ sort: key, dir: nextDir })} hx-get={url({ sort: key, dir: nextDir })} hx-target={target} hx-swap="outerHTML">
                        {Html.escapeHtml(COLUMN_LABELS[key])}
                        {current ? (q.dir === "asc" ? " ▲" : " ▼") : ""}
                      </a>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((e) => (
                <tr>
                  <th scope="row">
                    <span safe>{e.eventName}</span>
                    <br />
                    <code class="muted" safe>
                      {e.eventKey}
                    </code>
                  </th>
                  <td safe>{fmt(e.clickCount)}</td>
                  <td safe>{fmt(e.dedupedViewCount)}</td>
                  <td safe>{fmt(e.outboundClickCount)}</td>
                  <td safe>{fmt(e.calendarSyncCount)}</td>
                  <td safe>{fmt(e.uniqueSessionCount)}</td>
                  <td safe>{pct(e.conversionRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The Audience Export form: a plain GET of the CSV endpoint (the browser downloads the file). */
export function AudienceExport(props: { windowDays: number }): JSX.Element {
  return (
    <section class="card insights-block" aria-labelledby="audience-export-title">
      <h2 id="audience-export-title">Audience Export</h2>
      <p class="muted">One row per visitor session active in the window, with its interaction counts, email when signed in, and preferred genres.</p>
      <form class="audience-form" method="get" action={siteHref("/api/admin/insights/audience.csv")}>
        <label>
          Window (days) <input type="number" name="windowDays" min="1" max="365" value={String(props.windowDays)} />
        </label>
        <label>
          Minimum interactions <input type="number" name="minInteractions" min="0" value="1" />
        </label>
        <label>
          <input type="checkbox" name="calendarSyncOnly" value="1" /> Calendar sync only
        </label>
        <label>
          <input type="checkbox" name="outboundClickOnly" value="1" /> Outbound click only
        </label>
        <fieldset class="genre-picks">
          <legend>Top genres (any of)</legend>
          {GENRES.map((g) => (
            <label>
              <input type="checkbox" name="topGenres" value={g.key} /> {Html.escapeHtml(g.label)}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="button">
          Export CSV
        </button>
      </form>
    </section>
  );
}

/** Collected Users: six tiles, the list, Copy Emails and Export CSV. */
export function UsersBlock(props: { summary: UsersSummary; users: CollectedUser[] }): JSX.Element {
  const s = props.summary;
  // Copy Emails takes only the users who consented (the CSV export too).
  const consenting = props.users.filter((u) => u.consent === true);
  const emails = consenting.map((u) => u.email).join(", ");
  return (
    <section id={INSIGHTS_USERS_ID} class="card insights-block" aria-labelledby="insights-users-title">
      <h2 id="insights-users-title">Collected Users</h2>
      <div class="tiles">
        <Tile label="Unique Users" value={fmt(s.uniqueUsers)} />
        <Tile label="Verifications" value={fmt(s.verifications)} />
        <Tile label="Last 24 h" value={fmt(s.last24Hours)} />
        <Tile label="Last 7 days" value={fmt(s.last7Days)} />
        <Tile label="Consented" value={fmt(s.consented)} />
        <Tile label="No Consent" value={fmt(s.noConsent)} />
      </div>
      <div class="card-actions">
        <button type="button" class="button" data-copy-target="#collected-emails" disabled={consenting.length === 0}>
          Copy Emails
        </button>
        <a class="button" href={siteHref("/api/admin/users.csv")} download="">
          Export CSV
        </a>
        <span class="muted copy-status" role="status"></span>
      </div>
      <p class="muted">Copy Emails and Export CSV include only the users who consented.</p>
      <label class="visually-hidden" for="collected-emails">
        Emails of consenting users
      </label>
      <textarea id="collected-emails" class="emails-box" readonly rows="2" safe>
        {emails}
      </textarea>
      {props.users.length === 0 ? (
        <p class="empty">No signed-in visitors yet.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col">Verifications</th>
                <th scope="col">Consent</th>
              </tr>
            </thead>
            <tbody>
              {props.users.slice(0, 200).map((u) => (
                <tr>
                  <th scope="row" safe>
                    {u.email}
                  </th>
                  <td safe>{[u.firstName, u.lastName].filter(Boolean).join(" ") || "–"}</td>
                  <td safe>{u.firstSeenAt.slice(0, 10)}</td>
                  <td safe>{u.lastSeenAt.slice(0, 10)}</td>
                  <td safe>{String(u.verificationCount)}</td>
                  <td safe>{u.consent === null ? "–" : u.consent ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "Erase a person's data": email, a confirmation, and what was removed. */
export function EraseCard(props: { result?: ErasureCounts; error?: string; email?: string }): JSX.Element {
  return (
    <section id={INSIGHTS_ERASE_ID} class="card insights-block" aria-labelledby="insights-erase-title">
      <h2 id="insights-erase-title">Erase a person's data</h2>
      <p class="muted">Deletes the person's account, sign-in history, genre preferences, event submissions and the emails sent to them; removes the email from every tracking record (the records stay as anonymous counts) and the name and email from their paid orders (kept for the accounts). This cannot be undone.</p>
      <form method="post" action={siteHref("/admin/insights/erase")} hx-post={siteHref("/admin/insights/erase")} hx-target={`#${INSIGHTS_ERASE_ID}`} hx-swap="outerHTML">
        <label>
          Email <input type="email" name="email" required maxlength="254" value={props.email ?? ""} autocomplete="off" />
        </label>
        <label>
          <input type="checkbox" name="confirm" value="1" required /> I understand this cannot be undone
        </label>
        <button type="submit" class="button button-danger">
          Erase data
        </button>
      </form>
      {props.error ? (
        <p class="form-error" role="alert" safe>
          {props.error}
        </p>
      ) : (
        ""
      )}
      {props.result ? (
        <p class="notice" role="status" safe>
          {`Erased: ${props.result.users} account, ${props.result.verifications} sign-ins, ${props.result.genrePreferences} genre preferences, ${props.result.submissions} submissions, ${props.result.messages} emails; email removed from ${props.result.engagementRows + props.result.discoveryRows} tracking records and ${props.result.orders} orders.`}
        </p>
      ) : (
        ""
      )}
    </section>
  );
}

/** Visitors' reports received in the window: total, per kind, events reported, still open, spam-flagged. */
export function ReportsBlock(props: { title: string; reports: ReportInsights }): JSX.Element {
  const r = props.reports;
  return (
    <section id={INSIGHTS_REPORTS_ID} class="card insights-block" aria-labelledby="insights-reports-title">
      <h2 id="insights-reports-title" safe>{`Reports from visitors, ${props.title.charAt(0).toLowerCase()}${props.title.slice(1)}`}</h2>
      <div class="tiles insights-tiles">
        <Tile label="Reports" value={fmt(r.total)} hint="Reports received in the window, spam-flagged ones excepted" />
        <Tile label="Cancelled" value={fmt(r.perKind.cancelled)} />
        <Tile label="Wrong place" value={fmt(r.perKind.wrong_place)} />
        <Tile label="Wrong time" value={fmt(r.perKind.wrong_time)} />
        <Tile label="Other" value={fmt(r.perKind.other)} />
        <Tile label="Events with reports" value={fmt(r.eventsWithReports)} />
        <Tile label="Still open" value={fmt(r.openCount)} hint="Not yet marked cancelled or dismissed" />
        <Tile label="Spam-flagged" value={fmt(r.spamCount)} hint="Hidden honeypot filled or form sent in under 4 s; not counted above" />
      </div>
      <p class="muted">
        <a href={siteHref("/admin/content#reports-card")}>Open reports in the Content area</a>
      </p>
    </section>
  );
}

/** A difference with its sign: "+3", "−2", "0". */
const signed = (n: number) => (n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : "0");

/** When each side of the comparison stops, as the table's caption says it. */
function comparisonCaption(c: EditionComparison): string {
  const prevEnd = c.previous.range.endAt.slice(0, 16).replace("T", " ");
  if (c.basis === "wholeWindow") return `After the night: the whole window of ${c.current.year} (lead-up from ${c.current.leadFrom} to ${c.current.to}, so far) against the whole window of ${c.previous.year}.`;
  const days = c.daysBeforeNight === 0 ? "on the night" : c.daysBeforeNight === 1 ? "1 day before the night" : `${fmt(c.daysBeforeNight)} days before the night`;
  return `${c.current.year} ${days}, from ${c.current.leadFrom} up to now, against ${c.previous.year} at the same distance, from ${c.previous.leadFrom} up to ${prevEnd} UTC.`;
}

function RankedRows(props: { title: string; rows: RankedDifference[]; empty: string }): JSX.Element {
  return (
    <>
      <tr>
        <th scope="rowgroup" colspan="4" safe>
          {props.title}
        </th>
      </tr>
      {props.rows.length === 0 ? (
        <tr>
          <td colspan="4" class="muted" safe>
            {props.empty}
          </td>
        </tr>
      ) : (
        props.rows.map((r) => (
          <tr>
            <th scope="row" safe>
              {r.label}
            </th>
            <td safe>{fmt(r.current)}</td>
            <td safe>{fmt(r.previous)}</td>
            <td safe>{signed(r.difference)}</td>
          </tr>
        ))
      )}
    </>
  );
}

/** This edition against the last at the same distance from the night: views, saves, searches, top genres and arrondissements. */
export function ComparisonBlock(props: { comparison: EditionComparison }): JSX.Element {
  const c = props.comparison;
  const figures: [string, number, number, number][] = [
    ["Views", c.current.views, c.previous.views, c.difference.views],
    ["Saves (calendar)", c.current.saves, c.previous.saves, c.difference.saves],
    ["Searches", c.current.searches, c.previous.searches, c.difference.searches],
  ];
  return (
    <section id={INSIGHTS_COMPARISON_ID} class="card insights-block" aria-labelledby="insights-comparison-title">
      <h2 id="insights-comparison-title" safe>{`Edition ${c.current.year} against ${c.previous.year}`}</h2>
      <div class="table-scroll">
        <table class="comparison-table">
          <caption class="muted" safe>
            {comparisonCaption(c)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" safe>
                {String(c.current.year)}
              </th>
              <th scope="col" safe>
                {String(c.previous.year)}
              </th>
              <th scope="col">Difference</th>
            </tr>
          </thead>
          <tbody>
            {figures.map(([label, current, previous, difference]) => (
              <tr>
                <th scope="row" safe>
                  {label}
                </th>
                <td safe>{fmt(current)}</td>
                <td safe>{fmt(previous)}</td>
                <td safe>{signed(difference)}</td>
              </tr>
            ))}
            <RankedRows title="Top genres (genre filters applied)" rows={c.difference.topGenres} empty="No genre filter applied." />
            <RankedRows title="Top arrondissements (arrondissement filters applied)" rows={c.difference.topArrondissements} empty="No arrondissement filter applied." />
          </tbody>
        </table>
      </div>
    </section>
  );
}
