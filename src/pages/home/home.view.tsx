// The homepage (see docs/public-pages.md, "Homepage"): header with banner, countdown and sign-in;
// intro; fallback notice; search; spotlight; stats; map; filters; chips and the list of every
// matching event. The results fragment is the list plus out-of-band pieces (count, spotlight,
// stats, map data), so the same components render the full page and the htmx swap.

import { formatDateLabel, formatDateRangeLabel } from "../../lib/sheet/dates.ts";
import { CalendarFeedLinks } from "../components/calendar-feed.view.tsx";
import Html from "@kitajs/html";
import type { PublicBanner } from "../../lib/site/banner.ts";
import { activeFilterChips, QUICK_CHIP_TRACKING, type FilterChip, type QuickChip } from "../../lib/events/filter-labels.ts";
import { nextFilterQueries, withSearch, type FilterChange } from "../../lib/events/filter-links.ts";
import { topSavedKeys, type FilterFacets } from "../../lib/events/filter-match.ts";
import { countdownAt, PAGE_SIZE, pagedQuery, withMoment, type HomeListing, type HomeStats } from "./listing.ts";
import { momentLabel, type Moment } from "../../lib/events/filter-moment.ts";
import { formatDayRangeWithYear, formatFullDay, t } from "../../lib/i18n/index.ts";
import type { Edition, EditionState } from "../../lib/events/editions.ts";
import { parisDate } from "../../lib/paris-time.ts";
import { arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { homeHref, pageHref } from "../../lib/links.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import { CARD_LIST_HX, EventCard, MODAL_ROOT_ID, type EventCardProps } from "../components/event-card.view.tsx";
import { FILTERS_FORM_ID, FilterPanel, RESULTS_HX, RESULTS_ID, ResultCount, SearchBar } from "../components/filter-panel.view.tsx";
import { MapCard, MapData } from "../components/map.view.tsx";
import { Icon } from "../components/icons.tsx";
import { OfflineNotice } from "../components/offline-notice.view.tsx";
import { NEAR_ME_ID, NearMe } from "./near-me.view.tsx";
import type { PreviewClock } from "../../lib/preview-clock.ts";

export const SPOTLIGHT_ID = "spotlight";
export const STATS_ID = "stats";
export const ALL_EVENTS_ID = "all-events";
export const SIGN_IN_DIALOG_ID = "sign-in-dialog";
/** Where the sign-in form (GET /sign-in as an htmx fragment) is loaded when the dialog opens. */
export const SIGN_IN_SLOT_ID = "sign-in-slot";

/** htmx configuration of the public pages: history is handled by static/app.js (see there). */
// A 503 fragment ("Events are unavailable right now.") is swapped like a success; other errors are not.
const HTMX_CONFIG = {
  historyCacheSize: 0,
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "503", swap: true, error: false },
    { code: "[45]..", swap: false, error: true },
  ],
};

/**
 * How the homepage draws the pieces it shows again and again: plainly by default; the fast path
 * passes the ones it keeps for its render context (fast/kept-views.ts).
 */
export interface HomePieces {
  card(props: EventCardProps): JSX.Element;
  /** The removable chips of the listing's filter state without its search text. */
  searchlessChips(listing: HomeListing): readonly FilterChip[];
}

/**
 * The pieces drawn afresh. The chips follow from the filter state without its search alone
 * (activeFilterChips reads the filters back from their canonical query); the search is added to
 * each link when shown.
 */
export const PLAIN_PIECES: HomePieces = {
  card: EventCard,
  searchlessChips: (listing) => activeFilterChips({ ...listing.filters, q: "" }),
};

export interface HomeHead {
  title: string;
  /** Attribute-escaped already (see components/attr.ts). */
  description: string;
  /** Extra head markup (canonical, OpenGraph, JSON-LD), already escaped. */
  head: string;
}

export interface HomePageProps {
  listing: HomeListing;
  facets: FilterFacets;
  quickDates: readonly string[];
  dateBounds: { min?: string; max?: string };
  banner: PublicBanner;
  now: Date;
  /** The preview minute `now` comes from, shown as a badge (docs/public-pages.md, "Preview clock"). */
  preview?: PreviewClock | null;
  showFallbackNotice: boolean;
  /** The read was degraded (database unreachable): the notice also says positions are approximate. */
  degraded?: boolean;
  head: HomeHead;
  /** Absolute URL of /calendar.ics (the subscribe link adds the filter query). */
  feedUrl: string;
  /** The open modal (server-side), already rendered. */
  modal?: JSX.Element;
  pieces?: HomePieces;
  /** The edition the page lists, and the last one when it is over (docs/editions.md). */
  edition: EditionNotice;
}

/** What the hero says about the editions. */
export interface EditionNotice {
  edition: Edition;
  state: EditionState;
  /** The edition before, when it had events: its archive is one tap away. */
  previous: { year: number; count: number } | null;
}

/** The header countdown to the current edition's night; static/app.js keeps it right on a cached page (Paris time). */
export function Countdown(props: { now: Date; night: string }): JSX.Element {
  const state = countdownAt(props.now, props.night);
  const text =
    state.kind === "today" ? t("home.countdown.today") : state.kind === "before" ? t("home.countdown.value", { days: String(state.days), hours: String(state.hours), minutes: String(state.minutes).padStart(2, "0") }) : "";
  return (
    <p class="countdown" data-countdown={props.night} hidden={state.kind === "after"}>
      <span class="countdown-label" safe>
        {t("home.countdown.label")}
      </span>{" "}
      <strong class="countdown-value" safe>
        {text}
      </strong>
    </p>
  );
}

/** The header's account area: a sign-in button (a link without JavaScript); app.js shows the email once signed in. */
export function AccountArea(): JSX.Element {
  return (
    <div class="account" data-account>
      <a class="button button-small account-sign-in" href={pageHref("/sign-in")} data-sign-in-open>
        <Icon name="user" /> <span safe>{t("home.signIn")}</span>
      </a>
      <span class="account-email" data-account-email hidden></span>
      <button type="button" class="button button-small button-quiet" data-sign-out hidden safe>
        {t("home.signOut")}
      </button>
    </div>
  );
}

function Spotlight(props: { listing: HomeListing; now: Date; pieces: HomePieces; oob?: boolean }): JSX.Element {
  const { listing } = props;
  const Card = props.pieces.card;
  return (
    <section id={SPOTLIGHT_ID} class="spotlight" aria-labelledby="spotlight-title" hx-swap-oob={props.oob ? "true" : undefined}>
      <div class="section-head">
        <h2 id="spotlight-title">
          <Icon name="sparkle" /> <span safe>{t("home.spotlight")}</span>
        </h2>
        <a class="section-link" href={pageHref("/feature-event")} safe>
          {t("home.spotlight.promote")}
        </a>
      </div>
      {listing.spotlight.length > 0 ? (
        <div class="card-grid card-grid-spotlight" {...CARD_LIST_HX}>
          {listing.spotlight.map((event) => (
            <Card event={event} now={props.now} showSaved={false} />
          ))}
        </div>
      ) : (
        <p class="muted" safe>
          {t(listing.totalCount === 0 ? "home.spotlight.none" : "home.spotlight.empty")}
        </p>
      )}
      <p class="spotlight-foot">
        <a class="button button-primary" href={`#${ALL_EVENTS_ID}`} data-scroll-to={ALL_EVENTS_ID}>
          {Html.escapeHtml(t("home.browseAll", { count: listing.matching.length }))}
        </a>
      </p>
    </section>
  );
}

function StatsRow(props: { stats: HomeStats; oob?: boolean }): JSX.Element {
  const { stats } = props;
  return (
    <section id={STATS_ID} class="stats" aria-label={t("home.stats")} hx-swap-oob={props.oob ? "true" : undefined}>
      <div class="stat">
        <strong safe>{String(stats.count)}</strong>
        <span safe>{t(stats.countLabel === "total" ? "home.stats.events.total" : "home.stats.events.filtered", { count: stats.count })}</span>
      </div>
      <div class="stat">
        <strong safe>{String(stats.areaCount)}</strong>
        <span safe>{t("home.stats.areas", { count: stats.areaCount })}</span>
      </div>
      <div class="stat">
        <strong safe>{String(stats.dateCount)}</strong>
        <span safe>{t("home.stats.dates", { count: stats.dateCount, range: stats.dateRangeLabel })}</span>
      </div>
    </section>
  );
}

export const QUICK_CHIPS_ID = "quick-chips";

/**
 * One-tap chips at the top of the list: Now, Tonight, Today, Free (links to canonical queries, so
 * they work without JavaScript and are cached like any filter) and Near me (the browser's position,
 * used only in the browser; without JavaScript a link to the arrondissement picker).
 */
export function QuickChips(props: { listing: HomeListing; now: Date; oob?: boolean }): JSX.Element {
  const { filters, moment } = props.listing;
  const today = parisDate(props.now);
  const next = nextFilterQueries(filters, props.listing.searchlessQuery);
  const href = (change: FilterChange, nextMoment: Moment | null) => homeHref(withMoment(next(change), nextMoment));
  const todayOn = filters.dateFrom === today && filters.dateTo === today;
  const freeOn = filters.priceRange !== null && filters.priceRange.min === 0 && filters.priceRange.max === 0;
  const free = { label: t("home.quick.free"), on: freeOn, href: href({ priceRange: freeOn ? null : { min: 0, max: 0 } }, moment), track: "free" as const };
  // Outside festival week "now", "tonight" and "today" would find nothing: the chips say when the
  // festival is and offer its days instead (a chosen moment stays removable); with nothing listed
  // yet (the next edition's programme not begun) the hero says when it is.
  const festival = props.listing.festival;
  const offSeason = !festival.on;
  const chips: Array<{ label: string; on: boolean; href: string; track: QuickChip }> = offSeason
    ? [
        ...(moment ? [{ label: t(`home.quick.${moment}`), on: true, href: href({}, null), track: moment }] : []),
        ...festival.days.map((day) => {
          const on = filters.dateFrom === day && filters.dateTo === day;
          return { label: formatDateLabel(day), on, href: href({ dateFrom: on ? null : day, dateTo: on ? null : day }, moment), track: "day" as const };
        }),
        free,
      ]
    : [
        { label: t("home.quick.now"), on: moment === "now", href: href({}, moment === "now" ? null : "now"), track: "now" },
        { label: t("home.quick.tonight"), on: moment === "tonight", href: href({}, moment === "tonight" ? null : "tonight"), track: "tonight" },
        { label: t("home.quick.today"), on: todayOn, href: href({ dateFrom: todayOn ? null : today, dateTo: todayOn ? null : today }, moment), track: "today" },
        free,
      ];
  return (
    <nav id={QUICK_CHIPS_ID} class="quick-chips" aria-label={t("home.quick")} hx-swap-oob={props.oob ? "true" : undefined}>
      {offSeason && festival.days.length > 0 ? (
        <p class="quick-note" safe>
          {t("home.quick.festival", { range: formatDateRangeLabel(festival.days[0]!, festival.days[festival.days.length - 1]!) })}
        </p>
      ) : (
        ""
      )}
      <ul>
        {chips.map((chip) => (
          <li>
            <a class={["moment-chip", chip.on && "is-active"]} href={chip.href} hx-get={chip.href} {...RESULTS_HX} aria-current={chip.on ? "true" : undefined} data-quick={chip.track} data-quick-group={QUICK_CHIP_TRACKING[chip.track].group} data-quick-value={QUICK_CHIP_TRACKING[chip.track].value}>
              {Html.escapeHtml(chip.label)}
            </a>
          </li>
        ))}
        <li>
          <a class="moment-chip" href={`#${NEAR_ME_ID}`} data-near-me data-quick-group={QUICK_CHIP_TRACKING.nearMe.group} data-quick-value={QUICK_CHIP_TRACKING.nearMe.value}>
            <Icon name="pin" /> <span safe>{t("home.quick.nearMe")}</span>
          </a>
        </li>
      </ul>
    </nav>
  );
}

export const STICKY_BAR_ID = "sticky-bar";

/** On a phone, a bar fixed at the bottom: "N events · Filters", opening the filter sheet (a link to the filters without JavaScript). */
export function StickyBar(props: { count: number; oob?: boolean }): JSX.Element {
  return (
    <a id={STICKY_BAR_ID} class="sticky-bar" href="#filters" data-open-filters hx-swap-oob={props.oob ? "true" : undefined}>
      <span safe>{t("home.sticky", { count: props.count })}</span> · <Icon name="filter" /> <span safe>{t("home.filters")}</span>
    </a>
  );
}

function FinishedDivider(): JSX.Element {
  return (
    <li class="finished-divider" role="separator" aria-label={t("home.finished")}>
      <span safe>{t("home.finished")}</span>
    </li>
  );
}

function Chips(props: { listing: HomeListing; pieces: HomePieces }): JSX.Element {
  const chips = props.pieces.searchlessChips(props.listing);
  const moment = props.listing.moment;
  if (chips.length === 0 && !moment) return "";
  const q = props.listing.filters.q;
  const clearAll = homeHref(withSearch("", q));
  const withoutMoment = moment ? homeHref(withSearch(props.listing.searchlessQuery, q)) : "";
  return (
    <div class="chips" aria-label={t("home.chips")} role="group">
      <ul>
        {moment ? (
          <li>
            <a class="chip" href={withoutMoment} hx-get={withoutMoment} {...RESULTS_HX}>
              <span safe>{momentLabel(moment)}</span>
              <Icon name="close" />
              <span class="visually-hidden" safe>
                {t("home.chips.remove")}
              </span>
            </a>
          </li>
        ) : (
          ""
        )}
        {chips.map((chip) => (
          <li>
            <a class="chip" href={homeHref(withMoment(withSearch(chip.removeQuery, q), moment))} hx-get={homeHref(withMoment(withSearch(chip.removeQuery, q), moment))} {...RESULTS_HX} data-track-clear={chip.group} data-track-value={chip.value}>
              <span safe>{chip.label}</span>
              <Icon name="close" />
              <span class="visually-hidden" safe>
                {t("home.chips.remove")}
              </span>
            </a>
          </li>
        ))}
      </ul>
      <a class="chip-clear" href={clearAll} hx-get={clearAll} {...RESULTS_HX} data-track-clear="all" safe>
        {t("home.chips.clearAll")}
      </a>
    </div>
  );
}

/**
 * "Did you mean …?": shown when a search finds fewer than three events and a respelling from the
 * list's titles, venues, genres and arrondissement names finds more. A plain link (htmx swaps the
 * results with it; without JavaScript it opens the page).
 */
export function DidYouMean(props: { listing: HomeListing }): JSX.Element {
  const suggestion = props.listing.suggestion;
  if (!suggestion) return "";
  const href = homeHref(suggestion.query);
  return (
    <p class="did-you-mean" role="status">
      <span safe>{t("home.didYouMean")}</span>{" "}
      {/* In the filters form's request queue: clicking it blurs the search box, whose change
          sends the form; the link's request replaces that one, so it never swaps back the misspelt search. */}
      <a href={href} hx-get={href} {...RESULTS_HX} hx-sync={`#${FILTERS_FORM_ID}:replace`} rel="nofollow" data-did-you-mean>
        <strong safe>{suggestion.q}</strong>
      </a>
      <span safe>{t("home.didYouMean.end")}</span>{" "}
      <span class="muted" safe>
        {`(${t("home.didYouMean.count", { count: suggestion.count })})`}
      </span>
    </p>
  );
}

function CardItems(props: { listing: HomeListing; now: Date; saved: ReadonlySet<string>; pieces: HomePieces }): JSX.Element {
  const { listing } = props;
  const Card = props.pieces.card;
  return (
    <>
      {listing.shown.map((event, i) => (
        <>
          {(listing.page - 1) * PAGE_SIZE + i === listing.finishedFrom ? <FinishedDivider /> : ""}
          <li class={listing.finishedFrom !== null && (listing.page - 1) * PAGE_SIZE + i >= listing.finishedFrom ? "is-finished" : undefined}>
            <Card event={event} now={props.now} showSaved={props.saved.has(event.eventKey)} />
          </li>
        </>
      ))}
      {listing.page < listing.pageCount ? <ShowMore listing={listing} /> : ""}
    </>
  );
}

/**
 * "Show more": with htmx the next page's cards replace this item in the list; without JavaScript
 * the link opens the next page (cards 31–60, …) as a page of its own.
 */
function ShowMore(props: { listing: HomeListing }): JSX.Element {
  const { listing } = props;
  const href = homeHref(pagedQuery(listing.query, listing.page + 1));
  const left = listing.matching.length - listing.page * PAGE_SIZE;
  return (
    <li class="show-more">
      <a class="button" href={href} hx-get={href} hx-target="closest li" hx-swap="outerHTML" hx-push-url="false" data-show-more>
        {Html.escapeHtml(t("home.showMore", { shown: Math.min(left, PAGE_SIZE), left }))}
      </a>
    </li>
  );
}

/** On page 2 and later without JavaScript: where these cards sit, and the way back. */
function EarlierLink(props: { listing: HomeListing }): JSX.Element {
  const { listing } = props;
  const first = (listing.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(listing.matching.length, listing.page * PAGE_SIZE);
  const previous = homeHref(pagedQuery(listing.query, listing.page - 1));
  return (
    <p class="page-note">
      <span safe>{listing.shown.length > 0 ? t("home.pageRange", { first, last, total: listing.matching.length }) : t("home.pageEmpty")}</span>{" "}
      <a href={previous} safe>
        {t("home.earlier")}
      </a>
    </p>
  );
}

/** The next page of cards for "Show more" (htmx): list items only, ending with the next "Show more". */
export function MoreCards(props: { listing: HomeListing; now: Date; pieces?: HomePieces }): JSX.Element {
  return <CardItems listing={props.listing} now={props.now} saved={topSavedKeys(props.listing.matching)} pieces={props.pieces ?? PLAIN_PIECES} />;
}

/** The swapped part: chips and All Events, then the out-of-band count, spotlight, stats and map data. */
export function HomeResults(props: { listing: HomeListing; now: Date; feedUrl: string; oob?: boolean; pieces?: HomePieces }): JSX.Element {
  const { listing } = props;
  const pieces = props.pieces ?? PLAIN_PIECES;
  const saved = topSavedKeys(listing.matching);
  return (
    <>
      <section id={RESULTS_ID} class="results" aria-labelledby="all-events-title" data-query={listing.query}>
        <Chips listing={listing} pieces={pieces} />
        <div class="section-head" id={ALL_EVENTS_ID} tabindex="-1">
          <h2 id="all-events-title">
            <span safe>{t("home.allEvents")}</span> <span class="count-badge" safe>{String(listing.matching.length)}</span>
          </h2>
          <a class="section-link" href={pageHref("/submit-event")} safe>
            {t("home.submitLink")}
          </a>
        </div>
        <CalendarFeedLinks feedUrl={props.feedUrl} query={listing.query} narrowed={listing.narrowed} />
        <DidYouMean listing={listing} />
        {listing.matching.length > 0 ? (
          <>
            {listing.page > 1 ? <EarlierLink listing={listing} /> : ""}
            <ol class="card-grid event-list" start={String((listing.page - 1) * PAGE_SIZE + 1)} {...CARD_LIST_HX}>
              <CardItems listing={listing} now={props.now} saved={saved} pieces={pieces} />
            </ol>
          </>
        ) : (
          <div class="empty">
            {listing.totalCount === 0 && !listing.narrowed && listing.festival.window ? (
              <p class="empty-edition" safe>
                {t("home.edition.empty", { year: listing.festival.window.from.slice(0, 4) })}
              </p>
            ) : listing.moment && !listing.festival.on && listing.festival.window ? (
              <p class="empty-outside" safe>
                {t("home.moment.outside", { moment: t(`home.quick.${listing.moment}`), range: formatDayRangeWithYear(listing.festival.window.from, listing.festival.window.to) })}
              </p>
            ) : (
              <p safe>{t("home.empty")}</p>
            )}
            {listing.narrowed ? (
              <p>
                <a class="button" href={pageHref("/")} hx-get={pageHref("/")} {...RESULTS_HX} data-track-clear="all" safe>
                  {t("home.clearFilters")}
                </a>
              </p>
            ) : (
              <p>
                <a class="button" href={pageHref("/submit-event")} safe>
                  {t("home.edition.submit")}
                </a>
              </p>
            )}
          </div>
        )}
      </section>
      {props.oob ? (
        <>
          <ResultCount count={listing.matching.length} narrowed={listing.narrowed} oob />
          <QuickChips listing={listing} now={props.now} oob />
          <StickyBar count={listing.matching.length} oob />
          <Spotlight listing={listing} now={props.now} pieces={pieces} oob />
          <StatsRow stats={listing.stats} oob />
          <MapData matching={listing.matching} filters={listing.filters} query={listing.query} searchlessQuery={listing.searchlessQuery} oob />
        </>
      ) : (
        ""
      )}
    </>
  );
}

function Intro(props: { showFallbackNotice: boolean; degraded?: boolean }): JSX.Element {
  return (
    <>
      <p class="kicker" safe>
        {t("home.kicker")}
      </p>
      <h1 id="home-title" safe>
        {t("home.heading")}
      </h1>
      <p class="lede" safe>
        {t("home.lede")}
      </p>
      {props.showFallbackNotice ? (
        <p class="notice notice-warning" role="status" safe>
          {props.degraded ? `${t("home.fallbackNotice")} ${t("home.degradedNotice")}` : t("home.fallbackNotice")}
        </p>
      ) : (
        ""
      )}
    </>
  );
}

function Shell(props: { head: HomeHead; banner: PublicBanner; now: Date; /** The current edition's night (the countdown). */ night: string; children: JSX.Element; modal?: JSX.Element; preview?: PreviewClock | null; /** The page's canonical path and query, for the language switch. */ languagePath?: string }): JSX.Element {
  // Children and the modal are rendered views (escaped where they are built).
  const safeContent = props.children;
  const safeModal = props.modal ?? "";
  return (
    <Layout
      title={props.head.title}
      description={props.head.description}
      head={props.head.head}
      htmxConfig={HTMX_CONFIG}
      bodyClass="home"
      scripts={["messages.js", "app.js", "my-night.js", "offline.js", "report.js"]}
    >
      <SiteHeader banner={props.banner} preview={props.preview} languagePath={props.languagePath}>
        <Countdown now={props.now} night={props.night} />
        <AccountArea />
      </SiteHeader>
      {safeContent}
      <div id={MODAL_ROOT_ID}>{safeModal}</div>
      <dialog id={SIGN_IN_DIALOG_ID} class="modal modal-small" aria-modal="true" aria-label={t("home.signInDialog")}>
        <div class="modal-panel">
          <div class="modal-tools modal-tools-corner">
            <button type="button" class="icon-button" data-dialog-close>
              <Icon name="close" />
              <span class="visually-hidden" safe>
                {t("common.close")}
              </span>
            </button>
          </div>
          <div id={SIGN_IN_SLOT_ID} aria-live="polite">
            <p>
              <a href={pageHref("/sign-in")} safe>
                {t("home.openSignIn")}
              </a>
            </p>
          </div>
        </div>
      </dialog>
      <SiteFooter languagePath={props.languagePath} />
    </Layout>
  );
}

/** Below this many listed events the lead says the programme is filling and how to submit. */
const FILLING_BELOW = 10;

/**
 * Off season, the hero leads with the coming edition: its night in full, a word that its programme
 * fills as hosts submit (with the way to submit), and, when the last edition had events, that it is
 * over, one tap from its archive. While an edition's window is open nothing is added.
 */
function EditionLead(props: { notice: EditionNotice; listed: number }): JSX.Element {
  const { edition, state, previous } = props.notice;
  if (state !== "upcoming") return <></>;
  return (
    <section class="edition-lead">
      <p class="edition-next">
        <strong safe>{t("home.edition.next", { date: formatFullDay(edition.night) })}</strong>
      </p>
      {previous ? (
        <p class="edition-over">
          <span safe>{t("home.edition.over", { year: String(previous.year) })}</span>{" "}
          <a href={pageHref(`/${previous.year}/`)} safe>
            {t("home.edition.archive", { year: String(previous.year) })}
          </a>
        </p>
      ) : (
        <></>
      )}
      {props.listed < FILLING_BELOW ? (
        <p class="edition-filling">
          <span safe>{t("home.edition.filling")}</span>{" "}
          <a href={pageHref("/submit-event")} safe>
            {t("home.edition.submit")}
          </a>
        </p>
      ) : (
        <></>
      )}
    </section>
  );
}

/** The full homepage. */
export function HomePage(props: HomePageProps): JSX.Element {
  const { listing } = props;
  const pieces = props.pieces ?? PLAIN_PIECES;
  return (
    <Shell head={props.head} banner={props.banner} now={props.now} night={props.edition.edition.night} modal={props.modal} preview={props.preview} languagePath={listing.query === "" ? "/" : `/?${listing.query}`}>
      <main id="main" class="home-main">
        <section class="hero" aria-labelledby="home-title">
          <OfflineNotice renderedAt={props.now} />
          <Intro showFallbackNotice={props.showFallbackNotice || props.degraded === true} degraded={props.degraded} />
          <EditionLead notice={props.edition} listed={listing.stats.count} />
          <SearchBar q={listing.filters.q} count={listing.matching.length} narrowed={listing.narrowed} />
          <QuickChips listing={listing} now={props.now} />
        </section>
        <NearMe listing={listing} facets={props.facets} />
        <StickyBar count={listing.matching.length} />
        <Spotlight listing={listing} now={props.now} pieces={pieces} />
        <StatsRow stats={listing.stats} />
        <MapCard matching={listing.matching} filters={listing.filters} query={listing.query} searchlessQuery={listing.searchlessQuery} />
        <div class="browse">
          <aside class="browse-filters" aria-label={t("home.filters")}>
            <FilterPanel filters={listing.filters} moment={listing.moment} facets={props.facets} quickDates={props.quickDates} dateBounds={props.dateBounds} />
          </aside>
          <div class="browse-results">
            <HomeResults listing={listing} now={props.now} feedUrl={props.feedUrl} pieces={pieces} />
          </div>
        </div>
      </main>
    </Shell>
  );
}

/** The homepage when every source failed and nothing was rendered before. */
export function UnavailablePage(props: { banner: PublicBanner; now: Date; night: string; head: HomeHead }): JSX.Element {
  return (
    <Shell head={props.head} banner={props.banner} now={props.now} night={props.night}>
      <main id="main" class="home-main">
        <section class="hero" aria-labelledby="home-title">
          <Intro showFallbackNotice={false} />
          <p class="notice notice-error" role="alert" safe>
            {t("home.unavailable")}
          </p>
          <p>
            <a class="button" href={pageHref("/")} safe>
              {t("home.tryAgain")}
            </a>
          </p>
        </section>
      </main>
    </Shell>
  );
}

/** The results fragment when events cannot be read (503): the results section with the notice. */
export function UnavailableResults(): JSX.Element {
  return (
    <section id={RESULTS_ID} class="results">
      <p class="notice notice-error" role="alert" safe>
        {t("home.unavailable")}
      </p>
    </section>
  );
}
