// /partner-stats/<id>?token=: the partner's own report (see docs/placements.md, "Partner
// statistics"): event, tier, window, the figures, a daily chart and the CSV download. Views only.

import type { PartnerDay, PartnerStats } from "../../lib/partners/stats.ts";
import { formatParisDisplay } from "../../lib/placements/schedule-input.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";

const number = new Intl.NumberFormat("en-GB");

function Figure(props: { label: string; value: string; hint?: string }): JSX.Element {
  return (
    <div class="stat-tile">
      <span class="stat-value" safe>
        {props.value}
      </span>
      <span class="stat-label" safe>
        {props.label}
      </span>
      {props.hint ? (
        <span class="stat-hint muted" safe>
          {props.hint}
        </span>
      ) : (
        ""
      )}
    </div>
  );
}

const SERIES = [
  { key: "views", label: "Views", className: "bar-views" },
  { key: "outbound", label: "Outbound clicks", className: "bar-outbound" },
  { key: "calendar", label: "Calendar saves", className: "bar-calendar" },
] as const;

/** A small bar chart of the daily series: one group of three bars per Paris day, plus a table for screen readers. */
function DailyChart(props: { days: PartnerDay[] }): JSX.Element {
  const max = Math.max(1, ...props.days.flatMap((d) => [d.views, d.outbound, d.calendar]));
  return (
    <section class="partner-chart" aria-labelledby="daily-title">
      <h2 id="daily-title">Day by day (Paris time)</h2>
      <div class="chart-legend" aria-hidden="true">
        {SERIES.map((s) => (
          <span class={`legend ${s.className}`} safe>
            {s.label}
          </span>
        ))}
      </div>
      <div class="chart-days" aria-hidden="true">
        {props.days.map((day) => (
          <div class="chart-day">
            <div class="chart-bars">
              {SERIES.map((s) => (
                <span class={`chart-bar ${s.className}`} style={`height:${Math.round((100 * day[s.key]) / max)}%`} title={`${s.label}: ${day[s.key]}`} />
              ))}
            </div>
            <span class="chart-label" safe>
              {day.day.slice(8, 10) + "/" + day.day.slice(5, 7)}
            </span>
          </div>
        ))}
      </div>
      <table class="visually-hidden">
        <caption>Daily figures</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map((s) => (
              <th scope="col" safe>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.days.map((day) => (
            <tr>
              <th scope="row" safe>
                {day.day}
              </th>
              <td safe>{String(day.views)}</td>
              <td safe>{String(day.outbound)}</td>
              <td safe>{String(day.calendar)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The report page. */
export function PartnerStatsPage(props: { stats: PartnerStats; days: PartnerDay[]; csvHref: string }): JSX.Element {
  const { stats } = props;
  const m = stats.metrics;
  const tier = stats.tier === "spotlight" ? "Spotlight" : "Promoted listing";
  return (
    <Layout title={`Statistics: ${stats.eventName} | finder`} noindex>
      <SiteHeader />
      <main id="main" class="page partner-page partner-stats">
        <p class="eyebrow">Partner statistics</p>
        <h1 safe>{stats.eventName}</h1>
        <p class="partner-stats-meta">
          <span class="badge" safe>
            {tier}
          </span>{" "}
          <span safe>{`${formatParisDisplay(new Date(stats.range.startAt))} → ${formatParisDisplay(new Date(stats.range.endAt))} (Paris time)`}</span>
        </p>
        <div class="stat-grid">
          <Figure label="Views" value={number.format(m.clickCount)} hint="Times the event was opened" />
          <Figure label="Outbound clicks" value={number.format(m.outboundClickCount)} hint="Clicks to your link" />
          <Figure label="Calendar saves" value={number.format(m.calendarSyncCount)} />
          <Figure label="Unique visitors" value={number.format(m.uniqueSessionCount)} />
          <Figure label="Visitors who clicked out" value={`${m.outboundSessionRate.toFixed(1)} %`} hint={`${m.uniqueOutboundSessionCount} of ${m.uniqueViewSessionCount} viewers`} />
          <Figure label="Visitors who saved it" value={`${m.calendarSessionRate.toFixed(1)} %`} hint={`${m.uniqueCalendarSessionCount} of ${m.uniqueViewSessionCount} viewers`} />
        </div>
        <DailyChart days={props.days} />
        <p>
          <a class="button" href={props.csvHref} download="">
            Download CSV
          </a>
        </p>
        <p class="muted">This private link shows live figures for your placement. Keep it to yourself: anyone with it can read these numbers.</p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** An error state of the report (same status as the JSON endpoint). */
export function PartnerStatsError(props: { message: string }): JSX.Element {
  return (
    <Layout title="Partner statistics | finder" noindex>
      <SiteHeader />
      <main id="main" class="page partner-page">
        <h1>Partner statistics</h1>
        <p role="alert" safe>
          {props.message}
        </p>
        <p class="muted">Check that you opened the full link you were sent, or write to us.</p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
