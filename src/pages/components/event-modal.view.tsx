// The event modal (see docs/public-pages.md, "Event modal"): opened from a card (htmx fragment) or
// rendered open by `/?event=<key>&slug=<slug>`. A native <dialog>; static/app.js makes it modal,
// traps focus, closes it on Escape and restores focus. Every action works as a plain link without
// JavaScript.

import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { formatAgeModalLabel } from "../../lib/sheet/age.ts";
import { formatDateLabel, formatDateRangeLabel, isValidIsoDate } from "../../lib/sheet/dates.ts";
import { linkHostname, mapAppLinks } from "../home/event-meta.ts";
import { savedLabel } from "../../lib/events/filter-labels.ts";
import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { formatPriceLabel } from "../../lib/sheet/price.ts";
import { calendarPath } from "../../lib/links.ts";
import { venueTypeLabel } from "../../lib/sheet/setting.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { Icon } from "./icons.tsx";
import { attr } from "./attr.ts";
import { SaveButton } from "./save-button.view.tsx";

/** The id of the event dialog. */
export const EVENT_MODAL_ID = "event-modal";
/** Shown under a disabled calendar button. */
export const CALENDAR_DISABLED_TEXT = "Add an unambiguous date to enable calendar export.";
/** The modal's closing line. */
export const MODAL_DISCLAIMER = "This information is preliminary and may change.";
/** How many genres the modal lists before "+N more". */
const MODAL_GENRES = 4;

export interface EventModalProps {
  event: LiveEvent;
  /** Absolute share link (/event/<key>/<slug>), copied by the share button. */
  shareUrl: string;
  /** Where the close link goes without JavaScript (the list behind the modal). */
  closeHref: string;
}

const CATEGORY_LABELS: Readonly<Record<string, string>> = { party: "Party", activity: "Activity", culture: "Culture", food: "Food & Drinks", wellness: "Wellness" };

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
    return `${label} (${formatDateRangeLabel(event.dateRangeStart, event.dateRangeEnd)}, day ${event.occurrenceIndex} of ${event.occurrenceCount})`;
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
  const calendarReady = isValidIsoDate(event.date);
  return (
    <dialog
      id={EVENT_MODAL_ID}
      class="modal"
      aria-modal="true"
      aria-labelledby="event-modal-title"
      open={props.open === true}
      data-event-key={event.eventKey}
      data-slug={event.slug}
    >
      <div class="modal-panel">
        <header class="modal-head">
          <div class="modal-heading">
            <p class="kicker" safe>
              {`${formatDateLabel(event.date)} · ${event.arrondissement === "unknown" ? "Paris" : arrondissementLongLabel(event.arrondissement)}`}
            </p>
            <h2 id="event-modal-title" tabindex="-1">
              <span safe>{event.eventName}</span>
              {event.curated ? (
                <span class="title-mark title-mark-curated">
                  <Icon name="star" class="icon-fill" />
                  <span class="visually-hidden">Curated pick</span>
                </span>
              ) : (
                ""
              )}
            </h2>
          </div>
          <div class="modal-tools">
            <button type="button" class="icon-button" data-share-url={props.shareUrl} aria-describedby="share-status">
              <Icon name="share" />
              <span class="visually-hidden">Share this event</span>
            </button>
            <a class="icon-button" href={props.closeHref} data-modal-close>
              <Icon name="close" />
              <span class="visually-hidden">Close</span>
            </a>
          </div>
          <p id="share-status" class="share-status" role="status" aria-live="polite"></p>
        </header>

        <ul class="modal-badges" aria-label="Highlights">
          {event.curated ? (
            <li class="badge badge-curated">
              <Icon name="star" class="icon-fill" /> Curated Pick
            </li>
          ) : (
            ""
          )}
          {event.calendarSyncCount > 0 ? (
            <li class="badge badge-saved">
              <Icon name="heart" class="icon-fill" /> <span safe>{savedLabel(event.calendarSyncCount)}</span>
            </li>
          ) : (
            ""
          )}
          {event.category ? (
            <li class="badge" safe>
              {CATEGORY_LABELS[event.category] ?? event.category}
            </li>
          ) : (
            ""
          )}
          {genres.map((genre) => (
            <li class="badge tag-genre" style={`--genre:${genreColour(genre)}`} safe>
              {genreLabel(genre)}
            </li>
          ))}
          {moreGenres > 0 ? <li class="badge" safe>{`+${moreGenres} more`}</li> : ""}
        </ul>

        <dl class="modal-facts">
          <Fact label="Date" value={dateValue(event)} />
          <Fact label="Time" value={formatTimeLabel(event.time, event.endTime)} />
          <Fact label="Price" value={formatPriceLabel(event.price, event.priceValue)} />
          <Fact label="Age" value={formatAgeModalLabel(event.age, event.ageValue)} />
          <Fact label="Venue Type" value={venueTypeLabel(event.venueTypes)} />
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
            <p class="modal-venue muted">Location TBA</p>
          )}
          {venueKnown ? (
            <p class="map-links">
              <a class="button button-quiet" href={maps.google} data-map-link data-google-href={maps.google} data-apple-href={maps.apple} target="_blank" rel="noopener noreferrer">
                <Icon name="map" /> Open map
              </a>
              <button type="button" class="link-button" data-map-app-switch hidden>
                Use Apple Maps
              </button>
            </p>
          ) : (
            ""
          )}
        </section>

        {event.description ? (
          <section class="modal-notes" aria-labelledby="event-modal-notes">
            <h3 id="event-modal-notes">Notes</h3>
            <p safe>{event.description}</p>
          </section>
        ) : (
          ""
        )}

        <p class={event.verified ? "verified" : "verified verified-no"}>
          {event.verified ? <Icon name="check" /> : ""}
          {event.verified ? "Verified event" : "Unverified - details may change"}
        </p>

        <div class="modal-actions">
          {event.link && primaryHost ? (
            <ExternalLink url={event.link} label={`View on ${primaryHost}`} source="modal_primary_link" eventKey={event.eventKey} primary />
          ) : (
            <button type="button" class="button" disabled>
              Link Coming Soon
            </button>
          )}
          {calendarReady ? (
            <a class="button" href={calendarPath(event)} download="" data-track="calendar_sync" data-track-source="modal_calendar_sync" data-event-key={event.eventKey}>
              <Icon name="calendar" /> Add to Calendar
            </a>
          ) : (
            <span class="calendar-disabled">
              <button type="button" class="button" disabled aria-describedby="calendar-disabled-note">
                <Icon name="calendar" /> Add to Calendar
              </button>
              <small id="calendar-disabled-note">{CALENDAR_DISABLED_TEXT}</small>
            </span>
          )}
          <SaveButton eventKey={event.eventKey} large />
          {secondary.map((url) => {
            const host = linkHostname(url);
            return host ? <ExternalLink url={url} label={`Also on ${host}`} source="modal_secondary_link" eventKey={event.eventKey} /> : "";
          })}
        </div>
        <p class="disclaimer">{MODAL_DISCLAIMER}</p>
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
          <h2 id="event-modal-title" tabindex="-1">
            This event is no longer listed
          </h2>
          <div class="modal-tools">
            <a class="icon-button" href={props.closeHref} data-modal-close>
              <Icon name="close" />
              <span class="visually-hidden">Close</span>
            </a>
          </div>
        </header>
        <p>It may have been removed or renamed. Browse the list for what is on.</p>
      </div>
    </dialog>
  );
}
