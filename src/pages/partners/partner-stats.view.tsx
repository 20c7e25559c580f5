// /partner-stats/<id>?token=: the partner's own report (see docs/placements.md, "Partner
// statistics"): event, tier, window, the figures, a daily chart and the CSV download. Views only.

import { pageHref } from "../../lib/links.ts";
import type { PartnerDay, PartnerStats } from "../../lib/partners/stats.ts";
import { formatParisDisplay } from "../../lib/placements/schedule-input.ts";
import type { PlacementMoment } from "../../lib/placements/moments.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { DailyChart, type ChartSeries } from "../components/daily-chart.view.tsx";

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

/** The daily chart's lines: views, outbound clicks and calendar additions per Paris day. */
const DAILY_SERIES: readonly ChartSeries<"views" | "outbound" | "calendar">[] = [
  { key: "views", label: "Views", colour: "#2563eb" },
  { key: "outbound", label: "Outbound clicks", colour: "#ea580c" },
  { key: "calendar", label: "Calendar additions", colour: "#16a34a", dash: "2 3" },
];

/** The report page: kicker "Partner ROI", event and tier, "Event key: …", "Window: … - …", the seven cards, the interaction-rate line, the daily chart, the placement's history, CSV and the private-report note. */
export function PartnerStatsPage(props: { stats: PartnerStats; days: PartnerDay[]; csvHref: string; moments?: PlacementMoment[] }): JSX.Element {
  const { stats } = props;
  const m = stats.metrics;
  const tier = stats.tier === "spotlight" ? "Spotlight" : "Promoted listing";
  return (
    <Layout title={`Statistics: ${stats.eventName} | finder`} noindex>
      <SiteHeader />
      <main id="main" class="page partner-page partner-stats">
        <p class="eyebrow">Partner ROI</p>
        <h1 safe>{stats.eventName}</h1>
        <p class="partner-stats-meta">
          <span class="badge" safe>
            {tier}
          </span>
        </p>
        <p class="partner-stats-key" safe>{`Event key: ${stats.eventKey}`}</p>
        <p class="partner-stats-window" safe>{`Window: ${formatParisDisplay(new Date(stats.range.startAt))} - ${formatParisDisplay(new Date(stats.range.endAt))} (Paris time)`}</p>
        <p>
          <a class="button" href={props.csvHref} download="">
            Download CSV
          </a>
        </p>
        <div class="stat-grid">
          <Figure label="Views" value={number.format(m.clickCount)} hint="Times the event was opened" />
          <Figure label="Outbound" value={number.format(m.outboundClickCount)} hint="Clicks to your link" />
          <Figure label="My-night saves" value={number.format(m.myNightSaveCount)} hint="Visitors who saved the event to My night (less removals)" />
          <Figure label="Calendar additions" value={number.format(m.calendarSyncCount)} hint="Calendar files downloaded" />
          <Figure label="Unique Sessions" value={number.format(m.uniqueSessionCount)} />
          <Figure label="Outbound CVR" value={`${m.outboundSessionRate.toFixed(1)}%`} hint={`${m.uniqueOutboundSessionCount} of ${m.uniqueViewSessionCount} viewing sessions`} />
          <Figure label="Calendar CVR" value={`${m.calendarSessionRate.toFixed(1)}%`} hint={`${m.uniqueCalendarSessionCount} of ${m.uniqueViewSessionCount} viewing sessions`} />
        </div>
        <p class="partner-stats-interaction" safe>{`Interaction rate (click-based): Outbound ${m.outboundInteractionRate.toFixed(1)}% • Calendar ${m.calendarInteractionRate.toFixed(1)}%`}</p>
        <section class="partner-chart" aria-labelledby="daily-title">
          <h2 id="daily-title">Day by day (Paris time)</h2>
          <DailyChart title="Views, outbound clicks and calendar additions per Paris day" series={DAILY_SERIES} days={props.days} />
        </section>
        {props.moments && props.moments.length > 0 ? (
          <section class="partner-moments" aria-labelledby="moments-title">
            <h2 id="moments-title">Your placement</h2>
            <ol class="placement-moments">
              {props.moments.map((moment) => (
                <li>
                  <time datetime={moment.at.toISOString()} safe>
                    {formatParisDisplay(moment.at)}
                  </time>{" "}
                  <span safe>{moment.label}</span>
                </li>
              ))}
            </ol>
          </section>
        ) : (
          ""
        )}
        <p class="muted">
          <strong>Private report.</strong> This private link shows live figures for your placement. Keep it to yourself: anyone with it can read these numbers.
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}

/** An error state of the report (same status as the JSON endpoint): "Token required" without a token, else "Stats unavailable" with the reason and a way back. */
export function PartnerStatsError(props: { message: string; tokenMissing?: boolean }): JSX.Element {
  return (
    <Layout title="Partner statistics | finder" noindex>
      <SiteHeader />
      <main id="main" class="page partner-page">
        <h1>{props.tokenMissing ? "Token required" : "Stats unavailable"}</h1>
        <p role="alert" safe>
          {props.message}
        </p>
        <p class="muted">Check that you opened the full link you were sent, or write to us.</p>
        <p>
          <a class="button" href={pageHref("/feature-event")}>
            Back to partner page
          </a>
        </p>
      </main>
      <SiteFooter />
    </Layout>
  );
}
