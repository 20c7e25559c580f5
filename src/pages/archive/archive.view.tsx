// The archive page of one edition, /<year>/ (see docs/editions.md, "The archive"): the edition's
// events grouped by day, with a plain GET search form (no script needed), the year on every date,
// "Finished" on what has ended and no calendar entry for it. Server-rendered, one page per query.

import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import { MAX_SEARCH_LENGTH } from "../../lib/events/filter-query.ts";
import type { EditionState } from "../../lib/events/editions.ts";
import { hasEnded } from "../../lib/events/filter-moment.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { pageHref, sharePath, SITE_NAME } from "../../lib/links.ts";
import { formatDayWithYear, t } from "../../lib/i18n/index.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { attr } from "../components/attr.ts";

/** One day of the archive list: its ISO date and its events, by start time. */
export interface ArchiveDay {
  date: string;
  events: LiveEvent[];
}

export interface ArchivePageProps {
  year: number;
  state: EditionState;
  /** The search text as parsed (parseFilters), "" for none. */
  q: string;
  /** A search or filter narrows the list. */
  narrowed: boolean;
  /** Events of the edition in all (dated in its year). */
  totalCount: number;
  /** Events shown (after the search and filters). */
  foundCount: number;
  days: ArchiveDay[];
  now: Date;
  /** The page's hreflang alternates (alternateLinks), already escaped markup. */
  alternates?: string;
  /** An event of the edition opened by a share link (EventModal), already rendered. */
  modal?: JSX.Element;
}

/** The events by day, in date order, each day's events by start time (undated and unknown times last, list order kept otherwise). */
export function groupByDay(events: readonly LiveEvent[]): ArchiveDay[] {
  const byDay = new Map<string, LiveEvent[]>();
  for (const event of events) {
    const day = byDay.get(event.date);
    if (day) day.push(event);
    else byDay.set(event.date, [event]);
  }
  const timeOf = (event: LiveEvent) => (/^\d{2}:\d{2}$/.test(event.time ?? "") ? event.time! : "99:99");
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, list]) => ({ date, events: list.map((event, i) => ({ event, i })).sort((a, b) => (timeOf(a.event) < timeOf(b.event) ? -1 : timeOf(a.event) > timeOf(b.event) ? 1 : a.i - b.i)).map(({ event }) => event) }));
}

function stateNote(state: EditionState): string {
  if (state === "past") return t("archive.over");
  if (state === "live") return t("archive.live");
  return t("archive.upcoming");
}

/** One event of the archive: its title (a link to its share page), date with the year, time, venue and arrondissement. */
function ArchiveItem(props: { event: LiveEvent; now: Date }): JSX.Element {
  const { event } = props;
  const ended = hasEnded(event, props.now);
  const time = formatTimeLabel(event.time, event.endTime);
  return (
    <li class={["archive-event", ended && "archive-event-ended", event.status === "cancelled" && "archive-event-cancelled"]} data-event-key={event.eventKey}>
      <h3 class="archive-event-title">
        <a href={pageHref(sharePath(event))} safe>
          {event.eventName}
        </a>
      </h3>
      <p class="archive-event-when">
        <span class="archive-event-date" safe>
          {formatDayWithYear(event.date)}
        </span>
        {time ? (
          <>
            {" · "}
            <span class="archive-event-time" safe>
              {time}
            </span>
          </>
        ) : (
          ""
        )}
        {ended ? (
          <>
            {" "}
            <span class="archive-event-finished" safe>
              {t("archive.finished")}
            </span>
          </>
        ) : (
          ""
        )}
      </p>
      <p class="archive-event-where">
        {isUnknownLocation(event.location) ? (
          ""
        ) : (
          <>
            <span class="archive-event-venue" safe>
              {locationLabel(event.location)}
            </span>
            {" · "}
          </>
        )}
        <span class="archive-event-area" safe>
          {arrondissementLongLabel(event.arrondissement)}
        </span>
      </p>
    </li>
  );
}

/** The archive page of one edition. */
export function ArchivePage(props: ArchivePageProps): JSX.Element {
  const year = String(props.year);
  const action = pageHref(`/${year}/`);
  // The modal is a rendered view (escaped where it is built).
  const safeModal = props.modal ?? "";
  const count = props.narrowed ? t("archive.found", { count: props.foundCount }) : t("archive.count", { count: props.totalCount });
  return (
    <Layout title={`${t("archive.title", { year })} | ${SITE_NAME}`} description={t("archive.description", { year })} alternates={props.alternates}>
      <SiteHeader />
      <main id="main" class="page archive" data-edition={year} data-edition-state={props.state}>
        <p class="kicker" safe>
          {t("archive.kicker")}
        </p>
        <h1 safe>{t("archive.title", { year })}</h1>
        <p class={`archive-state archive-state-${props.state}`}>
          <strong safe>{stateNote(props.state)}</strong>{" "}
          <a href={pageHref("/")} safe>
            {t("archive.current")}
          </a>
        </p>
        <form class="archive-search" method="get" action={action} role="search">
          <label for="archive-q" safe>
            {t("archive.search.label", { year })}
          </label>
          <div class="archive-search-row">
            <input id="archive-q" type="search" name="q" value={attr(props.q)} maxlength={String(MAX_SEARCH_LENGTH)} placeholder={t("archive.search.placeholder")} />
            <button class="button button-primary" type="submit" safe>
              {t("archive.search.submit")}
            </button>
            {props.narrowed ? (
              <a class="button" href={action} safe>
                {t("archive.search.clear")}
              </a>
            ) : (
              ""
            )}
          </div>
        </form>
        <p class="archive-count" role="status" safe>
          {count}
        </p>
        {props.days.length === 0 ? (
          <p class="archive-empty" safe>
            {props.narrowed ? t("archive.empty") : t("archive.none")}
          </p>
        ) : (
          props.days.map((day) => {
            const label = formatDayWithYear(day.date);
            return (
              <section class="archive-day" data-date={day.date}>
                <h2 class="archive-day-title">
                  <span safe>{label}</span> <span class="archive-day-count" safe>{t("archive.count", { count: day.events.length })}</span>
                </h2>
                <ul class="archive-list" aria-label={t("archive.listLabel", { day: label })}>
                  {day.events.map((event) => (
                    <ArchiveItem event={event} now={props.now} />
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </main>
      {safeModal}
      <SiteFooter />
    </Layout>
  );
}
