// The "My night" page (see docs/public-pages.md, "My night"): the saved events in time order, the
// walking route between them, one .ics of all of them and a share link. The events come from the
// keys in the URL; static/my-night.js puts the browser's saved keys there when the URL has none.

import Html from "@kitajs/html";
import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel, isValidIsoDate } from "../../lib/sheet/dates.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { pageHref, sharePath } from "../../lib/links.ts";
import { mapAppLinks } from "../components/event-links.ts";
import { attr } from "../components/attr.ts";
import { Icon } from "../components/icons.tsx";
import { DayPeriodIcon } from "../components/event-card.view.tsx";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import type { PreviewClock } from "../../lib/preview-clock.ts";
import { OfflineNotice } from "../components/offline-notice.view.tsx";
import { SaveButton } from "../components/save-button.view.tsx";
import { MAX_NIGHT_EVENTS, type WalkingRoute } from "./night.ts";
import { currentLanguage, t } from "../../lib/i18n/index.ts";
import { SITE_NAME } from "../../lib/links.ts";
import { EventStatusLine, LiveState } from "../components/event-status.view.tsx";

/** Visitor-facing texts of the page (one object, for the message catalogue). */
export const MY_NIGHT_TEXT = {
  get title() {
    return t("night.title");
  },
  get lede() {
    return t("night.lede");
  },
  get empty() {
    return t("night.empty");
  },
  get noScript() {
    return t("night.noScript");
  },
  get browse() {
    return t("night.browse");
  },
  get route() {
    return t("night.route");
  },
  get calendar() {
    return t("night.calendar");
  },
  get share() {
    return t("night.share");
  },
  get subscribe() {
    return t("night.subscribe");
  },
  get shareLink() {
    return t("night.shareLink");
  },
  get openMap() {
    return t("night.openMap");
  },
  get locationTba() {
    return t("night.locationTba");
  },
  get saveAll() {
    return t("night.saveAll");
  },
  get shared() {
    return t("night.shared");
  },
  get unavailable() {
    return t("night.unavailable");
  },
  missing: (n: number) => t("night.missing", { count: n }),
  malformed: (n: number) => t("night.malformed", { count: n }),
  get overCap() {
    return t("night.overCap", { max: MAX_NIGHT_EVENTS });
  },
  routePart: (from: number, to: number) => t("night.routePart", { from, to }),
  unplaced: (n: number) => t("night.unplaced", { count: n }),
  get plan() {
    return t("night.plan");
  },
  get calendarNoEvents() {
    return t("night.calendarNoEvents");
  },
  get calendarNoKeys() {
    return t("night.calendarNoKeys");
  },
};

export interface MyNightPageProps {
  events: readonly LiveEvent[];
  /** Counts of what the link held but is not shown. */
  missing: number;
  malformed: number;
  overCap: number;
  routes: readonly WalkingRoute[];
  unplaced: number;
  /** The page's own address (`/my-night?e=…`) and its absolute share link. */
  path: string;
  shareUrl: string;
  /** The .ics address of these events. */
  calendarPath: string;
  /** The same file's absolute address with the webcal:// scheme: a calendar app subscribes and follows changes. */
  subscribeUrl: string;
  /** When the page was rendered (the offline notice's time). */
  renderedAt: Date;
  /** The preview minute `renderedAt` comes from, shown as a badge (docs/public-pages.md, "Preview clock"). */
  preview?: PreviewClock | null;
  /** Every source failed: the notice instead of the list. */
  unavailable?: boolean;
}

function Stop(props: { event: LiveEvent; now: Date }): JSX.Element {
  const { event } = props;
  const venueKnown = !isUnknownLocation(event.location);
  const area = event.arrondissement === "unknown" ? t("common.paris") : arrondissementLongLabel(event.arrondissement);
  return (
    <li class={["night-stop", event.status !== "scheduled" && `night-stop-${event.status}`]} data-event-key={event.eventKey} data-status={event.status === "scheduled" ? undefined : event.status}>
      <p class="night-when">
        <DayPeriodIcon event={event} /> <strong safe>{formatTimeLabel(event.time, event.endTime)}</strong> · <span safe>{formatDateLabel(event.date)}</span> <LiveState event={event} now={props.now} />
      </p>
      <h2 class="night-name">
        <a href={pageHref(sharePath(event))} safe>
          {event.eventName}
        </a>
      </h2>
      <EventStatusLine event={event} now={props.now} />
      <p class="night-where muted">
        <Icon name="pin" />
        <span safe>{venueKnown ? `${locationLabel(event.location)} · ${area}` : `${MY_NIGHT_TEXT.locationTba} · ${area}`}</span>
      </p>
      <p class="night-stop-actions">
        {venueKnown ? (
          <a class="button button-small button-quiet" href={attr(mapAppLinks(event).google)} target="_blank" rel="noopener noreferrer">
            <Icon name="map" /> <span safe>{MY_NIGHT_TEXT.openMap}</span>
          </a>
        ) : (
          ""
        )}
        <SaveButton eventKey={event.eventKey} />
      </p>
    </li>
  );
}

function Notices(props: Pick<MyNightPageProps, "missing" | "malformed" | "overCap">): JSX.Element {
  const lines: string[] = [];
  if (props.missing > 0) lines.push(MY_NIGHT_TEXT.missing(props.missing));
  if (props.malformed > 0) lines.push(MY_NIGHT_TEXT.malformed(props.malformed));
  if (props.overCap > 0) lines.push(MY_NIGHT_TEXT.overCap);
  if (lines.length === 0) return "";
  return (
    <div class="notice notice-warning night-notice" role="status">
      {lines.map((line) => (
        <p safe>{line}</p>
      ))}
    </div>
  );
}

function Actions(props: MyNightPageProps): JSX.Element {
  const keys = props.events.map((event) => event.eventKey).join(",");
  const dated = props.events.some((event) => isValidIsoDate(event.date));
  return (
    <section class="night-actions" aria-label={t("night.plan")}>
      {props.routes.map((route) => (
        <a class="button button-primary" href={attr(route.url)} target="_blank" rel="noopener noreferrer" data-night-route>
          <Icon name="route" />
          <span safe>{props.routes.length === 1 ? MY_NIGHT_TEXT.route : MY_NIGHT_TEXT.routePart(route.from, route.to)}</span>
        </a>
      ))}
      {dated ? (
        <a class="button" href={props.calendarPath} download="my-night.ics" rel="nofollow" data-track="calendar_sync" data-track-source="my_night_calendar" data-event-keys={keys}>
          <Icon name="calendar" /> <span safe>{MY_NIGHT_TEXT.calendar}</span>
        </a>
      ) : (
        ""
      )}
      {dated ? (
        <a class="button" href={attr(props.subscribeUrl)} rel="nofollow" data-night-subscribe>
          <Icon name="calendar" /> <span safe>{MY_NIGHT_TEXT.subscribe}</span>
        </a>
      ) : (
        ""
      )}
      <button type="button" class="button" data-share-url={props.shareUrl} aria-describedby="share-status">
        <Icon name="share" /> <span safe>{MY_NIGHT_TEXT.share}</span>
      </button>
      <p class="night-share-link">
        <a href={props.path} data-night-share-link safe>
          {MY_NIGHT_TEXT.shareLink}
        </a>
      </p>
      <p id="share-status" class="share-status" role="status" aria-live="polite"></p>
      {props.unplaced > 0 ? <p class="muted" safe>{MY_NIGHT_TEXT.unplaced(props.unplaced)}</p> : ""}
    </section>
  );
}

/** The whole page. */
export function MyNightPage(props: MyNightPageProps): JSX.Element {
  const keys = props.events.map((event) => event.eventKey).join(",");
  return (
    <Layout title={`${MY_NIGHT_TEXT.title} | ${SITE_NAME}`} description={MY_NIGHT_TEXT.lede} bodyClass="my-night-page" scripts={["messages.js", "app.js", "my-night.js", "offline.js"]} noindex>
      <SiteHeader preview={props.preview} />
      <main id="main" class="page narrow my-night" data-night-keys={keys}>
        <OfflineNotice renderedAt={props.renderedAt} />
        <h1 safe>{MY_NIGHT_TEXT.title}</h1>
        <p class="lede" safe>{MY_NIGHT_TEXT.lede}</p>
        {props.unavailable ? (
          <p class="notice notice-error" role="alert" safe>
            {MY_NIGHT_TEXT.unavailable}
          </p>
        ) : (
          <Notices missing={props.missing} malformed={props.malformed} overCap={props.overCap} />
        )}
        <p class="notice night-shared" data-night-shared hidden>
          <span safe>{MY_NIGHT_TEXT.shared}</span>{" "}
          <button type="button" class="button button-small" data-night-save-all>
            <Icon name="bookmark" /> <span safe>{MY_NIGHT_TEXT.saveAll}</span>
          </button>
        </p>
        {props.events.length > 0 ? (
          <>
            <Actions {...props} />
            <ol class="night-list">
              {props.events.map((event) => (
                <Stop event={event} now={props.renderedAt} />
              ))}
            </ol>
          </>
        ) : props.unavailable ? (
          ""
        ) : (
          <div class="night-empty" data-night-empty>
            <p safe>{MY_NIGHT_TEXT.empty}</p>
            <noscript>
              <p class="muted" safe>{MY_NIGHT_TEXT.noScript}</p>
            </noscript>
            <p>
              <a class="button button-primary" href={pageHref("/")}>
                {Html.escapeHtml(MY_NIGHT_TEXT.browse)}
              </a>
            </p>
          </div>
        )}
      </main>
      <SiteFooter />
    </Layout>
  );
}
