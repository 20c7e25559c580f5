// The event card of the homepage lists (see docs/public-pages.md, "Homepage"): badges, when and
// where, price, age, type, series day, nationalities, the first two genres and the saved line. The
// card is a link to the event's share URL; with htmx it opens the event modal in place and pushes
// the modal URL.

import { arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel } from "../../lib/sheet/dates.ts";
import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { eventModalHref, pageHref } from "../../lib/links.ts";
import { isActivePromotion, isActiveSpotlight } from "../../lib/events/active-placements.ts";
import { formatAgeLabel } from "../../lib/sheet/age.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { nationalityDisplay } from "../../lib/sheet/nationality.ts";
import { formatPriceLabel, isFreePrice } from "../../lib/sheet/price.ts";
import { savedLabel } from "../../lib/events/filter-labels.ts";
import { eventKindLabels } from "../../lib/sheet/misc-fields.ts";
import { sharePath } from "../../lib/links.ts";
import { dayPeriodOf, formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import Html from "@kitajs/html";
import { Icon } from "./icons.tsx";
import { t } from "../../lib/i18n/index.ts";
import { SaveButton } from "./save-button.view.tsx";
import { EventStatusLine, LiveState } from "./event-status.view.tsx";

/** The id of the element the event modal is swapped into. */
export const MODAL_ROOT_ID = "modal-root";

export interface EventCardProps {
  event: LiveEvent;
  now: Date;
  /** Show "X people saved this" (the top-8 rule is decided by the caller). */
  showSaved: boolean;
  /** Heading level of the title inside its section. */
  headingLevel?: 3 | 4;
}

/**
 * Attributes of a list that holds cards: the htmx target, swap and history push every card link
 * inherits (kept on the list so 2,000 cards do not repeat them).
 */
export const CARD_LIST_HX = { "hx-target": `#${MODAL_ROOT_ID}`, "hx-swap": "innerHTML", "hx-push-url": "true" } as const;

/** Attributes that open an event's modal: the share link without JavaScript, the modal fragment with htmx. */
export function openEventAttributes(event: Pick<LiveEvent, "eventKey" | "slug">) {
  return { href: pageHref(sharePath(event)), "hx-get": eventModalHref(event) };
}

function Badge(props: { class: string; text: string; endsAt?: string | null }): JSX.Element {
  return (
    <span class={`badge ${props.class}`} data-ends-at={props.endsAt ?? undefined} safe>
      {props.text}
    </span>
  );
}

/**
 * The sun or the moon of an event (`dayPeriodOf`, the rule the day/night filter uses too), named
 * for assistive technology; a clock without a valid start. Shown by the card, the modal and My night.
 */
export function DayPeriodIcon(props: { event: Pick<LiveEvent, "time" | "endTime"> }): JSX.Element {
  const period = dayPeriodOf(props.event.time, props.event.endTime);
  if (period === "night") return <Icon name="moon" class="icon-night" label={t("event.night")} />;
  if (period === "day") return <Icon name="sun" class="icon-day" label={t("event.day")} />;
  return <Icon name="clock" />;
}

/**
 * One event card, drawn at `now` (its placement marks, status line and live state). The
 * homepage's fast path keeps cards it draws again (pages/home/fast/kept-views.ts).
 */
export function EventCard(props: EventCardProps): JSX.Element {
  const { event, now } = props;
  const spotlight = isActiveSpotlight(event, now);
  const promoted = !spotlight && isActivePromotion(event, now);
  const age = formatAgeLabel(event.age, event.ageValue);
  const price = formatPriceLabel(event.price, event.priceValue);
  const venueKnown = !isUnknownLocation(event.location);
  const Heading = props.headingLevel === 4 ? "h4" : "h3";
  // Each mark is one element: the icon is drawn by CSS and its meaning is the element's name.
  const corner = spotlight ? (
    <span class="card-corner card-corner-spotlight icon i-sparkle" title={t("event.spotlight")} data-ends-at={event.featuredEndsAt ?? undefined}></span>
  ) : event.curated ? (
    <span class="card-corner card-corner-curated icon i-star" title={t("event.curated")}></span>
  ) : (
    ""
  );
  const titleMark = spotlight ? (
    <Icon name="crown" class="title-mark title-mark-spotlight" label={t("event.spotlight")} />
  ) : event.curated ? (
    <Icon name="star" class="title-mark title-mark-curated" label={t("event.curated")} />
  ) : (
    ""
  );
  const venueLabel = event.venueTypes.map((type) => t(`event.venue.${type}`)).join(t("event.and"));
  return (
    <article
      class={["card", spotlight && "card-spotlight", promoted && "card-promoted", event.curated && "card-curated", event.status !== "scheduled" && `card-status-${event.status}`]}
      data-event-key={event.eventKey}
      data-status={event.status === "scheduled" ? undefined : event.status}
    >
      {corner}
      <div class="card-top">
        <span class="area-badge" title={event.arrondissement === "unknown" ? t("arrondissement.toBeConfirmed") : undefined} safe>
          {arrondissementShortLabel(event.arrondissement)}
        </span>
        {spotlight ? <Badge class="badge-featured" text={t("event.featured")} endsAt={event.featuredEndsAt} /> : ""}
        {promoted ? <Badge class="badge-promoted" text={t("event.promoted")} endsAt={event.promotedEndsAt} /> : ""}
        <SaveButton eventKey={event.eventKey} />
      </div>
      <Heading class="card-title">
        <a class="card-link" {...openEventAttributes(event)} safe>
          {event.eventName}
        </a>
        {titleMark}
      </Heading>
      <EventStatusLine event={event} now={now} />
      <p class="card-when">
        <DayPeriodIcon event={event} />
        {Html.escapeHtml(formatTimeLabel(event.time, event.endTime))}
        <span class="card-date" safe>
          {formatDateLabel(event.date)}
        </span>
        <LiveState event={event} now={now} />
      </p>
      {venueKnown ? (
        <p class="card-venue">
          {event.venueTypes.length === 0 ? <Icon name="pin" /> : ""}
          {event.venueTypes.map((type, i) => <Icon name={type} label={i === 0 ? venueLabel : undefined} />)}
          {Html.escapeHtml(locationLabel(event.location))}
        </p>
      ) : (
        ""
      )}
      <ul class="card-tags" aria-label={t("event.details")}>
        <li class={isFreePrice(event.price, event.priceValue) ? "tag tag-free" : "tag tag-price"} safe>
          {price}
        </li>
        {age ? (
          <li class="tag" safe>
            {age}
          </li>
        ) : (
          ""
        )}
        {eventKindLabels(event).map((label) => (
          <li class="tag tag-kind" safe>
            {label}
          </li>
        ))}
        {event.occurrenceCount > 1 ? (
          <li class="tag tag-series" safe>
            {t("event.seriesDay", { index: event.occurrenceIndex, total: event.occurrenceCount })}
          </li>
        ) : (
          ""
        )}
        {event.nationality.map((code) => {
          const display = nationalityDisplay(code);
          return (
            <li class="tag tag-flag" data-flag={display.flag} safe>
              {display.code}
            </li>
          );
        })}
        {event.genres.slice(0, 2).map((genre) => (
          <li class="tag tag-genre" style={`--genre:${genreColour(genre)}`} safe>
            {genreLabel(genre)}
          </li>
        ))}
      </ul>
      {props.showSaved ? (
        <p class="card-saved i-heart" safe>
          {savedLabel(event.savedCount)}
        </p>
      ) : (
        ""
      )}
    </article>
  );
}
