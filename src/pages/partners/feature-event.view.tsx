// /feature-event: the partner page that sells spotlight and promoted placements, and its live
// spotlight status fragment (see docs/public-pages.md, "/feature-event"). Views only: data comes in
// through props.

import type { PackageKey } from "../../lib/config.ts";
import type { SpotlightStatus } from "../../lib/placements/spotlight-status.ts";
import { formatParisDisplay } from "../../lib/placements/schedule-input.ts";
import { Layout, SiteFooter, SiteHeader } from "../components/layout.tsx";
import type { PublicBanner } from "../../lib/site/banner.ts";
import { formatCount, type MessageKey, t } from "../../lib/i18n/index.ts";
import { pageHref, SITE_NAME } from "../../lib/links.ts";
import Html from "@kitajs/html";

/** Root id of the status fragment (htmx target). */
export const SPOTLIGHT_STATUS_ID = "spotlight-status";

/** A package on sale. */
export interface PackageOffer {
  key: PackageKey;
  name: string;
  price: string;
  summary: string;
  points: string[];
  addOn?: boolean;
  /** Payment link, or a mailto fallback. */
  href: string;
}

/** A package as sold: its key, price in euros and how many selling points the catalogue holds. */
interface PackageSpec {
  key: PackageKey;
  euros: number;
  points: 1 | 3;
  addOn?: boolean;
}

const PACKAGE_SPECS: readonly PackageSpec[] = [
  { key: "spotlight-standard", euros: 80, points: 3 },
  { key: "spotlight-takeover", euros: 150, points: 3 },
  { key: "promoted-listing", euros: 40, points: 3 },
  { key: "addon-whatsapp", euros: 50, points: 1, addOn: true },
  { key: "addon-newsletter", euros: 75, points: 1, addOn: true },
];

/** The placement packages and add-ons, in display order, worded in the current language. */
export function packages(): Omit<PackageOffer, "href">[] {
  const price = new Intl.NumberFormat(t("format.locale"), { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
  return PACKAGE_SPECS.map((spec) => ({
    key: spec.key,
    name: t(`package.${spec.key}.name`),
    price: price.format(spec.euros),
    summary: t(`package.${spec.key}.summary`),
    points: Array.from({ length: spec.points }, (_, i) => t(`package.${spec.key}.${i + 1}` as MessageKey)),
    addOn: spec.addOn,
  }));
}

const FAQ = [1, 2, 3, 4] as const;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "Live · ends in 2h 05m 09s" or "Ended 3h 5m ago"; static/feature-event.js computes the
 * same text every second in the browser.
 */
export function countdownLabel(endAt: string, now: Date): string {
  const diff = new Date(endAt).getTime() - now.getTime();
  if (diff > 0) {
    const seconds = Math.floor(diff / 1000);
    return t("feature.countdown.live", { h: String(Math.floor(seconds / 3600)), m: pad(Math.floor(seconds / 60) % 60), s: pad(seconds % 60) });
  }
  const minutes = Math.floor(-diff / 60000);
  return t("feature.countdown.ended", { h: String(Math.floor(minutes / 60)), m: String(minutes % 60) });
}

/** The spotlight status block (the fragment cached 60 s). */

/** The live status block; `status` undefined means the schedule could not be read. */
export function SpotlightStatusBlock(props: { status: SpotlightStatus | undefined; now: Date }): JSX.Element {
  const { status } = props;
  if (!status) {
    return (
      <section id={SPOTLIGHT_STATUS_ID} class="partner-status" aria-labelledby="spotlight-status-title" aria-live="polite">
        <div class="partner-status-head">
          <h2 id="spotlight-status-title" safe>
            {t("feature.status.title")}
          </h2>
        </div>
        <p class="notice notice-warning" role="status" safe>
          {t("feature.status.unavailable")}
        </p>
      </section>
    );
  }
  return (
    <section id={SPOTLIGHT_STATUS_ID} class="partner-status" aria-labelledby="spotlight-status-title" aria-live="polite">
      <div class="partner-status-head">
        <h2 id="spotlight-status-title" safe>
          {t("feature.status.title")}
        </h2>
        <span class={`slots-badge${status.slotsLeft === 0 ? " slots-full" : ""}`} data-slots={String(status.slots)} safe>
          {t("feature.status.slots", { left: status.slotsLeft, slots: status.slots })}
        </span>
      </div>
      {status.entries.length === 0 ? (
        <p class="muted" safe>
          {t("feature.status.empty")}
        </p>
      ) : (
        <ul class="spotlight-list">
          {status.entries.map((entry) => (
            <li class={`spotlight-entry spotlight-${entry.state}`}>
              <span class="spotlight-name" safe>
                {entry.eventName}
              </span>
              <span class="spotlight-state" safe>
                {t(entry.state === "active" ? "feature.status.live" : "feature.status.ended")}
              </span>
              <time class="spotlight-countdown" datetime={entry.endAt} data-countdown-end={entry.endAt} safe>
                {countdownLabel(entry.endAt, props.now)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {status.queuedCount > 0 ? (
        <p class="spotlight-queue muted" safe>
          {status.nextStartAt ? t("feature.status.queuedNext", { count: status.queuedCount, start: formatParisDisplay(new Date(status.nextStartAt)) }) : t("feature.status.queued", { count: status.queuedCount })}
        </p>
      ) : (
        ""
      )}
    </section>
  );
}

/** The hero's audience figures; engagement figures are absent when they could not be read. */
export interface AudienceStats {
  eventCount: number;
  arrondissementCount: number;
  visitors?: number;
  eventOpens?: number;
  calendarSaves?: number;
}

export interface FeatureEventPageProps {
  packages: PackageOffer[];
  partnerEmail: string;
  audience: AudienceStats;
  alternates?: string;
  /** The sliding banner above the header, as on the homepage (docs/public-pages.md, "Sliding banner"). */
  banner?: PublicBanner;
}

/** The figures worth showing, as [value, label] in the current language: zero engagement figures are left out. */
export function audienceStats(audience: AudienceStats): [string, string][] {
  const stat = (count: number, key: MessageKey): [string, string] => [formatCount(count), t(key, { count })];
  const stats: [string, string][] = [stat(audience.eventCount, "feature.stat.events"), stat(audience.arrondissementCount, "feature.stat.areas")];
  if (audience.visitors) stats.push(stat(audience.visitors, "feature.stat.visitors"));
  if (audience.eventOpens) stats.push(stat(audience.eventOpens, "feature.stat.opens"));
  if (audience.calendarSaves) stats.push(stat(audience.calendarSaves, "feature.stat.saves"));
  return stats;
}

/** The static shell of /feature-event; the status block loads into it. */
export function FeatureEventPage(props: FeatureEventPageProps): JSX.Element {
  const mediaKit = `mailto:${props.partnerEmail}?subject=${encodeURIComponent(t("feature.mediaKitSubject"))}`;
  return (
    <Layout title={t("feature.title", { site: SITE_NAME })} description={t("feature.description")} alternates={props.alternates} scripts={["messages.js", "feature-event.js"]}>
      <SiteHeader banner={props.banner} />
      <main id="main" class="page partner-page">
        <section class="partner-hero">
          <p class="kicker" safe>
            {t("feature.kicker")}
          </p>
          <h1 safe>{t("feature.heading")}</h1>
          <p class="lead" safe>
            {t("feature.lead")}
          </p>
          <ul class="audience-stats" aria-label={t("feature.audience")}>
            {audienceStats(props.audience).map(([value, label]) => (
              <li>
                <strong safe>{value}</strong> <span safe>{label}</span>
              </li>
            ))}
          </ul>
          <div class="hero-actions">
            <a class="button button-primary" href="#packages" safe>
              {t("feature.book")}
            </a>
            <a class="button" href={mediaKit} safe>
              {t("feature.mediaKit")}
            </a>
          </div>
        </section>

        <div hx-get={pageHref("/feature-event/status")} hx-trigger="load" hx-swap="outerHTML" hx-select={`#${SPOTLIGHT_STATUS_ID}`}>
          <section id={SPOTLIGHT_STATUS_ID} class="partner-status">
            <h2 safe>{t("feature.status.title")}</h2>
            <p class="muted">
              <a href={pageHref("/feature-event/status")} safe>
                {t("feature.status.link")}
              </a>
            </p>
          </section>
        </div>

        <section id="packages" class="packages" aria-labelledby="packages-title">
          <h2 id="packages-title" safe>
            {t("feature.packages")}
          </h2>
          <div class="package-grid">
            {props.packages.map((offer) => (
              <article class={`package${offer.addOn ? " package-addon" : ""}`}>
                <h3 safe>{offer.name}</h3>
                <p class="package-price" safe>
                  {offer.price}
                </p>
                <p safe>{offer.summary}</p>
                <ul>
                  {offer.points.map((point) => (
                    <li safe>{point}</li>
                  ))}
                </ul>
                <a class="button button-primary" href={offer.href} rel={offer.href.startsWith("http") ? "noopener" : undefined}>
                  {Html.escapeHtml(t(offer.addOn ? "feature.addToBooking" : "feature.bookNow"))}
                </a>
              </article>
            ))}
          </div>
        </section>

        <section class="how-it-works" aria-labelledby="how-title">
          <h2 id="how-title" safe>
            {t("feature.how")}
          </h2>
          <ol>
            {(["feature.how.1", "feature.how.2", "feature.how.3", "feature.how.4"] as const).map((key) => (
              <li safe>{t(key)}</li>
            ))}
          </ol>
        </section>

        <section class="faq" aria-labelledby="faq-title">
          <h2 id="faq-title" safe>
            {t("feature.faq")}
          </h2>
          {FAQ.map((n) => (
            <details>
              <summary safe>{t(`feature.faq.${n}.q`)}</summary>
              <p safe>{t(`feature.faq.${n}.a`)}</p>
            </details>
          ))}
        </section>

        <section class="partner-contact">
          <h2 safe>{t("feature.contact")}</h2>
          <p>
            <span safe>{t("feature.contact.before")}</span>{" "}
            <a href={`mailto:${props.partnerEmail}`} safe>
              {props.partnerEmail}
            </a>{" "}
            <span safe>{t("feature.contact.after")}</span>
          </p>
        </section>
      </main>
      <div class="sticky-book" role="region" aria-label={t("feature.stickyBook")}>
        <a class="button button-primary" href="#packages" safe>
          {t("feature.stickyButton")}
        </a>
      </div>
      <SiteFooter />
    </Layout>
  );
}

/** The status block as a page of its own (no JavaScript). */
export function SpotlightStatusPage(props: { status: SpotlightStatus | undefined; now: Date }): JSX.Element {
  return (
    <Layout title={t("feature.statusPage.title", { site: SITE_NAME })} scripts={["messages.js", "feature-event.js"]}>
      <SiteHeader />
      <main id="main" class="page partner-page">
        <p>
          <a href={pageHref("/feature-event")} safe>
            {t("feature.statusPage.back")}
          </a>
        </p>
        <SpotlightStatusBlock status={props.status} now={props.now} />
      </main>
      <SiteFooter />
    </Layout>
  );
}
