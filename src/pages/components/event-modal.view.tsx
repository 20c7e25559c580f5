// The event modal (see docs/public-pages.md, "Event modal"): opened from a card (htmx fragment) or
// rendered open by `/?event=<key>&slug=<slug>`. A native <dialog>; static/app.js makes it modal,
// traps focus, closes it on Escape and restores focus. Every action works as a plain link without
// JavaScript.

import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { formatAgeModalLabel } from "../../lib/sheet/age.ts";
import { formatDateLabel, formatDateRangeLabel, isValidIsoDate } from "../../lib/sheet/dates.ts";
import { linkHostname, mapAppLinks } from "./event-links.ts";
import { savedLabel } from "../../lib/events/filter-labels.ts";
import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { EventStatusLine, LiveState } from "./event-status.view.tsx";
import { formatPriceLabel } from "../../lib/sheet/price.ts";
import { eventKindLabels } from "../../lib/sheet/misc-fields.ts";
import { calendarPath } from "../../lib/links.ts";
import { venueTypeLabel } from "../../lib/sheet/setting.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { Icon } from "./icons.tsx";
import { attr } from "./attr.ts";
import { formatDayWithYear, t } from "../../lib/i18n/index.ts";
import { hasEnded } from "../../lib/events/filter-moment.ts";
import Html from "@kitajs/html";
import { SaveButton } from "./save-button.view.tsx";
import { DayPeriodIcon } from "./event-card.view.tsx";
import { ReportSection } from "./report.view.tsx";

/** The id of the event dialog. */
export const EVENT_MODAL_ID = "event-modal";
/** How many genres the modal lists before "+N more". */
const MODAL_GENRES = 4;

export interface EventModalProps {
  event: LiveEvent;
  /** Absolute share link (/event/<key>/<slug>), copied by the share button. */
  shareUrl: string;
  /** Where the close link goes without JavaScript (the list behind the modal). */
  closeHref: string;
  /** The clock the status markers are read at. */
  now: Date;
}

/** "Added to a calendar N times": calendar files downloaded, worded apart from the My-night saved line. */
export function calendarAddedLabel(count: number): string {
  return t("event.calendarAdded", { count });
}

function Fact(props: { label: string; value: string }): JSX.Element {
  return (
    <div class="fact">
      <dt safe>{props.label}</dt>
      <dd safe>{props.value}</dd>
    </div>
  );
}

function dateValue(event: LiveEvent): string {
  const label = formatDateLabel(event.date);
  if (event.occurrenceCount > 1 && isValidIsoDate(event.dateRangeStart) && isValidIsoDate(event.dateRangeEnd)) {
    return t("event.dateSeries", { date: label, range: formatDateRangeLabel(event.dateRangeStart, event.dateRangeEnd), index: event.occurrenceIndex, total: event.occurrenceCount });
  }
  return label;
}

function ExternalLink(props: { url: string; label: string; source: "modal_primary_link" | "modal_secondary_link"; eventKey: string; primary?: boolean }): JSX.Element {
  return (
    <a
      class={props.primary ? "button button-primary" : "button button-quiet"}
      href={attr(props.url)}
      target="_blank"
      rel="noopener noreferrer"
      data-track="outbound_click"
      data-track-source={props.source}
      data-event-key={props.eventKey}
    >
      <span safe>{props.label}</span>
      <Icon name="external" />
    </a>
  );
}

/** The dialog for one event; `open` renders it open (the server-side modal page). */
export function EventModal(props: EventModalProps & { open?: boolean }): JSX.Element {
  const { event } = props;
  const primaryHost = event.link ? linkHostname(event.link) : undefined;
  const secondary = (event.links ?? []).slice(1);
  const genres = event.genres.slice(0, MODAL_GENRES);
  const moreGenres = event.genres.length - genres.length;
  const venueKnown = !isUnknownLocation(event.location);
  const maps = mapAppLinks(event);
  // A finished event says so and offers no calendar entry; its date carries its year (last June's
  // events must not read as next June's).
  const ended = hasEnded(event, props.now);
  const calendarReady = isValidIsoDate(event.date) && !ended;
  return (
    <dialog
      id={EVENT_MODAL_ID}
      class="modal"
      aria-modal="true"
      aria-labelledby="event-modal-title"
      open={props.open === true}
      data-event-key={event.eventKey}
      data-slug={event.slug}
      data-status={event.status === "scheduled" ? undefined : event.status}
    >
      <div class="modal-panel">
        <header class="modal-head">
          <div class="modal-heading">
            <p class="kicker" safe>
              {`${ended ? formatDayWithYear(event.date) : formatDateLabel(event.date)} · ${event.arrondissement === "unknown" ? t("common.paris") : arrondissementLongLabel(event.arrondissement)}`}
            </p>
            <h2 id="event-modal-title" tabindex="-1">
              <span safe>{event.eventName}</span>
              {event.curated ? (
                <span class="title-mark title-mark-curated">
                  <Icon name="star" />
                  <span class="visually-hidden" safe>
                    {t("event.curated")}
                  </span>
                </span>
              ) : (
                ""
              )}
            </h2>
            <EventStatusLine event={event} now={props.now} class="modal-status" />
          </div>
          <div class="modal-tools">
            <button type="button" class="icon-button" data-share-url={props.shareUrl} aria-describedby="share-status">
              <Icon name="share" />
              <span class="visually-hidden" safe>
                {t("event.share")}
              </span>
            </button>
            <a class="icon-button" href={props.closeHref} data-modal-close>
              <Icon name="close" />
              <span class="visually-hidden" safe>
                {t("common.close")}
              </span>
            </a>
          </div>
          <p id="share-status" class="share-status" role="status" aria-live="polite"></p>
        </header>

        <ul class="modal-badges" aria-label={t("event.highlights")}>
          {event.curated ? (
            <li class="badge badge-curated">
              <Icon name="star" /> <span safe>{t("event.curatedBadge")}</span>
            </li>
          ) : (
            ""
          )}
          {event.savedCount > 0 ? (
            <li class="badge badge-saved">
              <Icon name="heart" /> <span safe>{savedLabel(event.savedCount)}</span>
            </li>
          ) : (
            ""
          )}
          {event.calendarSyncCount > 0 ? (
            <li class="badge badge-calendar">
              <Icon name="calendar" /> <span safe>{calendarAddedLabel(event.calendarSyncCount)}</span>
            </li>
          ) : (
            ""
          )}
          {eventKindLabels(event).map((label) => (
            <li class="badge badge-kind" safe>
              {label}
            </li>
          ))}
          {genres.map((genre) => (
            <li class="badge tag-genre" style={`--genre:${genreColour(genre)}`} safe>
              {genreLabel(genre)}
            </li>
          ))}
          {moreGenres > 0 ? <li class="badge" safe>{t("event.moreGenres", { count: moreGenres })}</li> : ""}
        </ul>

        <dl class="modal-facts">
          <Fact label={t("event.fact.date")} value={dateValue(event)} />
          <div class="fact">
            <dt safe>{t("event.fact.time")}</dt>
            <dd>
              <DayPeriodIcon event={event} /> {Html.escapeHtml(formatTimeLabel(event.time, event.endTime))} <LiveState event={event} now={props.now} />
            </dd>
          </div>
          <Fact label={t("event.fact.price")} value={formatPriceLabel(event.price, event.priceValue)} />
          <Fact label={t("event.fact.age")} value={formatAgeModalLabel(event.age, event.ageValue)} />
          <Fact label={t("event.fact.venueType")} value={venueTypeLabel(event.venueTypes)} />
        </dl>

        <section class="modal-location" aria-labelledby="event-modal-location">
          <h3 id="event-modal-location" safe>
            {arrondissementLongLabel(event.arrondissement)}
          </h3>
          {venueKnown ? (
            <p class="modal-venue">
              <Icon name="pin" />
              <span safe>{locationLabel(event.location)}</span>
            </p>
          ) : (
            <p class="modal-venue muted" safe>
              {t("event.locationTba")}
            </p>
          )}
          {venueKnown ? (
            <p class="map-links">
              <a class="button button-quiet" href={maps.google} data-map-link data-google-href={maps.google} data-apple-href={maps.apple} target="_blank" rel="noopener noreferrer">
                <Icon name="map" /> <span safe>{t("event.openMap")}</span>
              </a>
              <button type="button" class="link-button" data-map-app-switch hidden safe>
                {t("event.useApple")}
              </button>
            </p>
          ) : (
            ""
          )}
        </section>

        {event.description ? (
          <section class="modal-notes" aria-labelledby="event-modal-notes">
            <h3 id="event-modal-notes" safe>
              {t("event.notes")}
            </h3>
            <p safe>{event.description}</p>
          </section>
        ) : (
          ""
        )}

        <p class={event.verified ? "verified" : "verified verified-no"}>
          {event.verified ? <Icon name="check" /> : ""}
          {Html.escapeHtml(event.verified ? t("event.verified") : t("event.unverified"))}
        </p>

        <div class="modal-actions">
          {event.link && primaryHost ? (
            <ExternalLink url={event.link} label={t("event.viewOn", { host: primaryHost })} source="modal_primary_link" eventKey={event.eventKey} primary />
          ) : (
            <button type="button" class="button" disabled safe>
              {t("event.linkSoon")}
            </button>
          )}
          {ended ? (
            <p class="event-ended" safe>
              {t("event.ended")}
            </p>
          ) : calendarReady ? (
            <a class="button" href={calendarPath(event)} download="" data-track="calendar_sync" data-track-source="modal_calendar_sync" data-event-key={event.eventKey}>
              <Icon name="calendar" /> <span safe>{t("event.addToCalendar")}</span>
            </a>
          ) : (
            <span class="calendar-disabled">
              <button type="button" class="button" disabled aria-describedby="calendar-disabled-note">
                <Icon name="calendar" /> <span safe>{t("event.addToCalendar")}</span>
              </button>
              <small id="calendar-disabled-note" safe>
                {t("event.calendarDisabled")}
              </small>
            </span>
          )}
          <SaveButton eventKey={event.eventKey} large />
          {secondary.map((url) => {
            const host = linkHostname(url);
            return host ? <ExternalLink url={url} label={t("event.alsoOn", { host })} source="modal_secondary_link" eventKey={event.eventKey} /> : "";
          })}
        </div>
        <ReportSection eventKey={event.eventKey} />
        <p class="disclaimer" safe>
          {t("event.disclaimer")}
        </p>
      </div>
    </dialog>
  );
}

/** The modal for a key that is no longer listed (htmx fragment only). */
export function MissingEventModal(props: { closeHref: string; open?: boolean }): JSX.Element {
  return (
    <dialog id={EVENT_MODAL_ID} class="modal" aria-modal="true" aria-labelledby="event-modal-title" data-missing open={props.open}>
      <div class="modal-panel">
        <header class="modal-head">
          <h2 id="event-modal-title" tabindex="-1" safe>
            {t("event.missing.title")}
          </h2>
          <div class="modal-tools">
            <a class="icon-button" href={props.closeHref} data-modal-close>
              <Icon name="close" />
              <span class="visually-hidden" safe>
                {t("common.close")}
              </span>
            </a>
          </div>
        </header>
        <p safe>{t("event.missing.text")}</p>
      </div>
    </dialog>
  );
}
