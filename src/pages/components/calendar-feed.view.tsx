// "Subscribe to these events": the calendar feed of the current filters, as a webcal link a
// calendar app subscribes to (it then refreshes itself) and as a plain .ics download.

import { siteHref, withLanguageParam } from "../../lib/links.ts";
import { t } from "../../lib/i18n/index.ts";

/** The subscription URL of a feed: the same address with the webcal scheme. */
export function webcalUrl(feedUrl: string): string {
  return feedUrl.replace(/^https?:\/\//, "webcal://");
}

/** Links to the feed of `query` (the canonical filter query; "" for every event). */
export function CalendarFeedLinks(props: { feedUrl: string; query: string; narrowed: boolean }): JSX.Element {
  const params = withLanguageParam(props.query);
  const suffix = params === "" ? "" : `?${params}`;
  return (
    <p class="calendar-feed">
      <a href={webcalUrl(`${props.feedUrl}${suffix}`)} rel="nofollow" safe>
        {t(props.narrowed ? "home.feed.filtered" : "home.feed.all")}
      </a>
      {" · "}
      <a href={siteHref(`/calendar.ics${suffix}`)} rel="nofollow" download="finder.ics" safe>
        {t("home.feed.download")}
      </a>
    </p>
  );
}
